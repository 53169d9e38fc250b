import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import type { CustomCommand } from "../input/custom-commands.js";
import { commandChoice } from "./interactive-runner.js";
import type { LiveSession } from "./live-session.js";

const config = configFrom({ agent: { docs: { read_only: true }, writer: {} } });
const session = (agent: string) => ({ agent, model: { ref: "scripted/test-model" }, config }) as unknown as LiveSession;
const command = (front: Partial<CustomCommand>): CustomCommand => ({
  name: "review",
  template: "Review $ARGUMENTS",
  file: "/w/.bosun/commands/review.md",
  scope: "project",
  ...front,
});

describe("a custom command's agent and model (commandChoice)", () => {
  it("asks for nothing when the front matter names none, or what the session already has", () => {
    assert.equal(commandChoice(command({}), session("build")), undefined);
    assert.equal(commandChoice(command({ agent: "build", model: "scripted/test-model" }), session("build")), undefined);
  });

  it("names the agent and model that differ, with the command's file", () => {
    assert.deepEqual(commandChoice(command({ agent: "plan", model: "scripted/other" }), session("build")), {
      command: { name: "review", file: "/w/.bosun/commands/review.md", agent: "plan", model: "scripted/other" },
    });
    assert.deepEqual(commandChoice(command({ agent: "docs" }), session("plan")), {
      command: { name: "review", file: "/w/.bosun/commands/review.md", agent: "docs" },
    });
  });

  it("refuses to lift a read-only agent (built-in or configured) to one that may change files, and records why", () => {
    for (const [from, to] of [
      ["plan", "build"],
      ["docs", "writer"],
    ] as const) {
      const choice = commandChoice(command({ agent: to, scope: "global" }), session(from));
      assert.ok(choice && "refused" in choice, `${from} → ${to}`);
      assert.match(choice.message, new RegExp(`agent ${from} is read-only; switch with /agent ${to} first`));
      expectDecision([{ ...choice.refused, seq: 1, at: "" }], "agent.select", "code", from);
      assert.deepEqual(choice.refused.subject, { command: "review" });
    }
  });

  it("lets a repository's command switch only to a read-only agent; the person's own commands may switch to any", () => {
    const refused = commandChoice(command({ agent: "writer" }), session("build"));
    assert.ok(refused && "refused" in refused);
    assert.match(refused.message, /comes from this repository and asks for agent writer/);
    expectDecision([{ ...refused.refused, seq: 1, at: "" }], "agent.select", "code", "build");
    assert.equal(
      refused.refused.reasons.find((r) => r.decisive)?.rule,
      "a repository's command switches only to a read-only agent",
    );
    assert.deepEqual(commandChoice(command({ agent: "writer", scope: "global" }), session("build")), {
      command: { name: "review", file: "/w/.bosun/commands/review.md", agent: "writer" },
    });
  });
});
