import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { questionTool } from "../tools/question.js";
import { builtinTools } from "../tools/registry.js";
import { systemPrompt } from "./system-prompt.js";

/** The characters a request spends on the prompt and the tool definitions, as providers receive them. */
export function promptAndToolsSize(editTool: "edit" | "apply_patch" = "edit"): { prompt: number; tools: number } {
  // Every session has the question tool beside the built-in ones.
  // A tool that cannot be used here (websearch with no backend) is not sent, nor the edit tool not chosen.
  const leftOut = editTool === "edit" ? "apply_patch" : "edit";
  const tools = [...builtinTools(), questionTool({ record: () => undefined })].filter(
    (t) => !t.unusable && t.name !== leftOut,
  );
  const prompt = systemPrompt({ tools: tools.map((t) => t.name) });
  const definitions = tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.inputJsonSchema ?? z.toJSONSchema(t.schema, { io: "input" }),
  }));
  return { prompt: prompt.length, tools: JSON.stringify(definitions).length };
}

describe("system prompt", () => {
  // 6,000 held the seven core tools; the job, todo, web and question tools (five more) were measured
  // and trimmed to fit 7,000, still near pi's ~5,400 and far under opencode's ~30,000.
  it("the default agent's prompt plus tool definitions stay under 7,000 characters", () => {
    // With edit (most models) and with apply_patch (OpenAI's): a model is sent one of them.
    for (const editTool of ["edit", "apply_patch"] as const) {
      const { prompt, tools } = promptAndToolsSize(editTool);
      assert.ok(
        prompt + tools < 7_000,
        `${editTool}: prompt ${prompt} + tools ${tools} = ${prompt + tools} characters`,
      );
    }
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
