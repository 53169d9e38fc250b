import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { render } from "ink-testing-library";
import type { PersonReply } from "../permission/approval.js";
import { App } from "./app.js";
import type { InteractiveRunner } from "./runner.js";

const tick = (ms = 40) => new Promise((resolve) => setTimeout(resolve, ms));

/** A runner whose turn streams two text pieces, asks for one call, and reports what it was told. */
function scripted() {
  const seen: { turns: string[]; bangs: string[]; replies: PersonReply[] } = { turns: [], bangs: [], replies: [] };
  const runner: InteractiveRunner = {
    status: () => ({ model: "scripted/test", agent: "build", mode: "approve", tokens: 1200, window: 8000 }),
    async turn(text, io) {
      seen.turns.push(text);
      io.emit({ type: "text", text: "Looking " });
      io.emit({ type: "text", text: "**now**." });
      io.emit({ type: "tool_call", id: "c1", name: "shell", input: { command: "npm test" } });
      const reply = await io.prompt.ask(
        {
          tool: "shell",
          callId: "c1",
          input: { command: "npm test" },
          outcomes: [
            { request: { action: "shell", resource: "npm test" }, effect: "ask", holder: "code", reasons: [] },
          ],
          always: { options: [{ label: "always", rules: [{ action: "shell", pattern: "npm test *" }] }] },
        },
        io.signal,
      );
      seen.replies.push(reply);
      io.emit({ type: "tool_result", id: "c1", name: "shell", summary: "exit 0", isError: false });
      return { status: "done", steps: 2, denied: 0 };
    },
    async bang(command) {
      seen.bangs.push(command);
      return { output: "a.txt\nb.txt", exitCode: 0 };
    },
    why: () => "1\t1\tcall.permission\tcode\task",
    compact: async () => "compacted",
    close: async () => {},
  };
  return { runner, seen };
}

async function type(ui: ReturnType<typeof render>, text: string) {
  ui.stdin.write(text);
  await tick();
  ui.stdin.write("\r");
  await tick(80);
}

describe("the interactive session", () => {
  it("streams the answer, holds the call in the approval dialog, and shows its result", async () => {
    const { runner, seen } = scripted();
    const ui = render(<App runner={runner} />);
    await tick();
    assert.match(ui.lastFrame() ?? "", /scripted\/test · build · approve · 1\.2k\/8\.0k \(15%\) tokens/);
    await type(ui, "run the tests");
    let frame = ui.lastFrame() ?? "";
    assert.match(frame, /› run the tests/);
    assert.match(frame, /Looking now\./);
    assert.match(frame, /shell needs your approval/);
    assert.match(frame, /a allow always — saves shell:npm test \*/);
    ui.stdin.write("a");
    await tick(80);
    frame = ui.lastFrame() ?? "";
    assert.deepEqual(seen.replies, [
      { kind: "always", option: { label: "always", rules: [{ action: "shell", pattern: "npm test *" }] } },
    ]);
    assert.doesNotMatch(frame, /needs your approval/);
    assert.match(frame, /✓ shell .* — exit 0/);
    ui.unmount();
  });

  it("!cmd runs as the person; /help lists the commands; an unknown /word goes to the model with a note", async () => {
    const { runner, seen } = scripted();
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "!ls");
    assert.deepEqual(seen.bangs, ["ls"]);
    assert.match(ui.lastFrame() ?? "", /! ls \(exit 0\)\na\.txt\nb\.txt/);
    await type(ui, "/help");
    assert.match(ui.lastFrame() ?? "", /\/why/);
    assert.equal(seen.turns.length, 0);
    await type(ui, "/frobnicate now");
    assert.match(ui.lastFrame() ?? "", /\/frobnicate is not a command/);
    assert.deepEqual(seen.turns, ["/frobnicate now"]);
    ui.unmount();
  });
});
