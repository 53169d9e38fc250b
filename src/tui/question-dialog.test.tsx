import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { render } from "ink-testing-library";
import { until } from "../../test/support/ink-frames.js";
import type { QuestionReply } from "../contracts/question.js";
import { questionFromElicitation } from "../mcp/elicit.js";
import { QuestionDialog } from "./question-dialog.js";

const asked = questionFromElicitation("github", {
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 2 },
      ok: { type: "boolean", title: "Subscribe" },
      size: {
        type: "string",
        title: "Size",
        oneOf: [
          { const: "s", title: "Small" },
          { const: "l", title: "Large" },
        ],
      },
      tags: { type: "array", title: "Tags", items: { type: "string", enum: ["a", "b"] } },
    },
    required: ["name"],
  },
});
if (!asked.ok) throw new Error(asked.reason);
const question = asked.question;

async function typeInto(ui: ReturnType<typeof render>, keys: string) {
  for (const key of keys) {
    ui.stdin.write(key);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("the question dialog", () => {
  it("asks every field in turn, checks each against the form, and answers with the values", async () => {
    const replies: QuestionReply[] = [];
    const ui = render(<QuestionDialog question={question} onAnswer={(r) => replies.push(r)} armDelayMs={0} />);
    await until(ui, /MCP server github asks you[\s\S]*Who are you\?[\s\S]*a answer/);
    ui.stdin.write("a");
    await until(ui, /1\/4 Name/);
    await typeInto(ui, "A\r");
    await until(ui, /Name: 2 characters or more/, "a too short name is refused before the next field");
    await typeInto(ui, "da\r");
    await until(ui, /2\/4 Subscribe/);
    ui.stdin.write("y");
    await until(ui, /3\/4 Size[\s\S]*2 Large/);
    ui.stdin.write("2");
    await until(ui, /4\/4 Tags/);
    await typeInto(ui, "12");
    await until(ui, /\[x\] a[\s\S]*\[x\] b/);
    await typeInto(ui, "1\r");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(replies, [{ action: "accept", values: { name: "Ada", ok: true, size: "l", tags: ["b"] } }]);
    ui.unmount();
  });

  it("d declines, Esc walks away", async () => {
    for (const [key, action] of [
      ["d", "decline"],
      ["\u001b", "cancel"],
    ] as const) {
      const replies: QuestionReply[] = [];
      const ui = render(<QuestionDialog question={question} onAnswer={(r) => replies.push(r)} armDelayMs={0} />);
      await until(ui, /a answer/);
      ui.stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(replies, [{ action }]);
      ui.unmount();
    }
  });
});
