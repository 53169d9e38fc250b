import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { builtinTools } from "../tools/registry.js";
import { systemPrompt } from "./system-prompt.js";

/** The characters a request spends on the prompt and the tool definitions, as providers receive them. */
export function promptAndToolsSize(): { prompt: number; tools: number } {
  const tools = builtinTools();
  const prompt = systemPrompt({ tools: tools.map((t) => t.name) });
  const definitions = tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.inputJsonSchema ?? z.toJSONSchema(t.schema, { io: "input" }),
  }));
  return { prompt: prompt.length, tools: JSON.stringify(definitions).length };
}

describe("system prompt", () => {
  it("the default agent's prompt plus tool definitions stay under 6,000 characters", () => {
    const { prompt, tools } = promptAndToolsSize();
    assert.ok(prompt + tools < 6_000, `prompt ${prompt} + tools ${tools} = ${prompt + tools} characters`);
  });

  it("names the tools actually sent, says when there are none, and marks a read-only agent", () => {
    assert.match(systemPrompt({ tools: ["read", "shell"] }), /Tools this step: read, shell\./);
    assert.match(systemPrompt({ tools: [] }), /No tools are available this step/);
    assert.match(systemPrompt({ tools: ["read"], readOnly: true }), /You are read-only/);
    assert.doesNotMatch(systemPrompt({ tools: ["read"] }), /read-only/);
  });

  it("an agent's prompt replaces the built-in text; skills and instructions follow either", () => {
    const text = systemPrompt({
      tools: ["read"],
      agentPrompt: "You review code.",
      skills: "Skills: - x: y",
      instructions: "Instructions from /r/AGENTS.md:\nbe brief",
    });
    assert.equal(text, "You review code.\n\nSkills: - x: y\n\nInstructions from /r/AGENTS.md:\nbe brief");
    assert.ok(systemPrompt({ tools: ["read"], skills: "S" }).endsWith("\n\nS"));
  });
});
