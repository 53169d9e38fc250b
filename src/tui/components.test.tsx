import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { render } from "ink-testing-library";
import { until } from "../../test/support/ink-frames.js";
import type { ApprovalRequest, PersonReply } from "../permission/gate/approval.js";
import { ApprovalDialog } from "./approval-dialog.js";
import { InputBox } from "./input-box.js";
import { StatusLine } from "./status-line.js";
import { Transcript, type TranscriptItem } from "./transcript.js";
import { TrustDialog } from "./trust-dialog.js";

/** Lets Ink process the keys written to its stdin. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

const request: ApprovalRequest = {
  tool: "shell",
  callId: "c1",
  input: { command: "git status && npm test" },
  outcomes: [
    {
      request: { action: "shell", resource: "git status", readOnly: true },
      effect: "allow",
      holder: "code",
      reasons: [],
    },
    { request: { action: "shell", resource: "npm test" }, effect: "ask", holder: "code", reasons: [] },
  ],
  always: {
    options: [
      { label: "always", rules: [{ action: "shell", pattern: "npm test *" }] },
      { label: "always for npm *", rules: [{ action: "shell", pattern: "npm *" }] },
    ],
  },
};

async function answer(keys: string[]): Promise<{ reply?: PersonReply; frame: string }> {
  let reply: PersonReply | undefined;
  const ui = render(<ApprovalDialog request={request} onAnswer={(r) => (reply = r)} armDelayMs={0} />);
  await tick();
  for (const key of keys) {
    ui.stdin.write(key);
    await tick();
  }
  const frame = ui.lastFrame() ?? "";
  ui.unmount();
  return { ...(reply ? { reply } : {}), frame };
}

describe("the approval dialog", () => {
  it("shows the tool, each request with the rules' answer, and the choices", async () => {
    const { frame, reply } = await answer([]);
    assert.equal(reply, undefined);
    assert.match(frame, /shell needs your approval/);
    assert.match(frame, /✓ allowed\s+shell:git status/);
    assert.match(frame, /\? asks\s+shell:npm test/);
    assert.match(frame, /o allow once/);
    assert.match(frame, /a allow always… \(2 choices\)/);
  });

  it("o allows once; d denies", async () => {
    assert.deepEqual((await answer(["o"])).reply, { kind: "once" });
    assert.deepEqual((await answer(["d"])).reply, { kind: "deny" });
  });

  it("a shows the exact rules each always saves, and the number picks one", async () => {
    const shown = await answer(["a"]);
    assert.match(shown.frame, /1 always — saves shell:npm test \*/);
    assert.match(shown.frame, /2 always for npm \* — saves shell:npm \*/);
    assert.deepEqual((await answer(["a", "2"])).reply, { kind: "always", option: request.always.options[1] });
  });

  it("m takes a message for the agent; Esc leaves", async () => {
    assert.deepEqual((await answer(["m", "use", " pnpm", "\r"])).reply, { kind: "deny", message: "use pnpm" });
    assert.deepEqual((await answer(["\u001b"])).reply, { kind: "cancel" });
  });
});

describe("the transcript", () => {
  it("renders messages, markdown, tool lines with their status, and bang shell runs", () => {
    const ui = render(
      <Transcript
        items={[
          { kind: "user", text: "fix the test" },
          { kind: "assistant", text: "## Plan\nRun **npm test** with `--watch` off.\n\n- one" },
          { kind: "tool", id: "t1", name: "shell", title: "shell `npm test`", status: "error", summary: "exit 1" },
          { kind: "tool", id: "t2", name: "edit", title: "edit a.ts", status: "done", detail: "-old\n+new" },
          { kind: "shell", command: "ls", output: "a.ts", exitCode: 0 },
        ]}
      />,
    );
    const frame = ui.lastFrame() ?? "";
    assert.match(frame, /› fix the test/);
    assert.match(frame, /Plan\nRun npm test with --watch off\.\n *\n• one/, "a blank line between blocks is drawn");
    assert.match(frame, /✗ shell `npm test` → exit 1/);
    assert.match(frame, /✓ edit a\.ts/);
    assert.doesNotMatch(frame, /\+new/);
    assert.match(frame, /! ls \(exit 0\)\na\.ts/);
    ui.rerender(
      <Transcript
        expanded
        items={[{ kind: "tool", id: "t2", name: "edit", title: "edit a.ts", status: "done", detail: "-old\n+new" }]}
      />,
    );
    assert.match(ui.lastFrame() ?? "", /-old\n\s*\+new/);
    ui.unmount();
  });
});

describe("a call's line", () => {
  const tool = (summary: string, more: Partial<Extract<TranscriptItem, { kind: "tool" }>> = {}): TranscriptItem => ({
    kind: "tool",
    id: "t",
    name: "shell",
    title: "shell npm test",
    status: "done",
    summary,
    ...more,
  });

  it("says the call once, with what became of it, from the summaries the tools write", () => {
    const ui = render(
      <Transcript
        items={[
          tool("shell `npm test` → exit 0 (1.2s)"),
          tool("edit src/a.ts (no match)", { name: "edit", title: "edit src/a.ts", status: "error" }),
          tool("read src/a.ts (120 lines)", { name: "read", title: "read src/a.ts" }),
          tool("grep /TODO/ src → 3 matches in 2 files", { name: "grep", title: "grep TODO" }),
          tool("edit: denied by the user", { name: "edit", title: "edit src/b.ts", status: "error" }),
          tool("notes/search failed", { name: "notes_search", title: "notes_search {}", status: "error" }),
          tool("read a.ts", { name: "read", title: "read a.ts" }),
        ]}
      />,
    );
    const lines = (ui.lastFrame() ?? "").split("\n");
    assert.deepEqual(lines, [
      "✓ shell npm test → exit 0 (1.2s)",
      "✗ edit src/a.ts → no match",
      "✓ read src/a.ts → 120 lines",
      "✓ grep TODO → 3 matches in 2 files",
      "✗ edit src/b.ts → denied by the user",
      "✗ notes_search {} → notes/search failed",
      "✓ read a.ts",
    ]);
    ui.unmount();
  });

  const diff = [
    "--- src/a.ts",
    "+++ src/a.ts",
    "@@ -1,4 +1,4 @@",
    " one",
    "-two",
    "+TWO",
    " three",
    " four",
    "@@ -9,2 +9,2 @@",
    "-nine",
    "+NINE",
  ].join("\n");
  const edit = (more: Partial<Extract<TranscriptItem, { kind: "tool" }>> = {}) =>
    tool("edit src/a.ts (+2 -2)", { name: "edit", title: "edit src/a.ts", detail: diff, ...more });

  it("an edit allowed without asking shows its diff folded: the first lines, then how many more (Ctrl-O)", () => {
    const ui = render(<Transcript items={[edit()]} />);
    assert.equal(
      ui.lastFrame(),
      [
        "✓ edit src/a.ts → +2 -2",
        "  @@ -1,4 +1,4 @@",
        "   one",
        "  -two",
        "  +TWO",
        "   three",
        "   four",
        "  … 3 more lines — Ctrl-O",
      ].join("\n"),
    );
    ui.unmount();
  });

  it("an edit the person approved (the dialog showed its diff), a failed one, a short one, and Ctrl-O", () => {
    const asked = render(<Transcript items={[edit({ asked: true })]} />);
    assert.equal(asked.lastFrame(), "✓ edit src/a.ts → +2 -2", "the diff is not shown twice");
    asked.unmount();
    const failed = render(<Transcript items={[edit({ status: "error", detail: "old_string not found" })]} />);
    assert.equal(failed.lastFrame(), "✓ edit src/a.ts → +2 -2".replace("✓", "✗"));
    failed.unmount();
    const short = render(<Transcript items={[edit({ detail: "@@ -1 +1 @@\n-a\n+b" })]} />);
    assert.equal(short.lastFrame(), "✓ edit src/a.ts → +2 -2\n  @@ -1 +1 @@\n  -a\n  +b");
    short.unmount();
    const opened = render(<Transcript expanded items={[edit()]} />);
    const frame = opened.lastFrame() ?? "";
    assert.match(frame, /--- src\/a\.ts[\s\S]*\+NINE/, "opened: the whole diff");
    assert.doesNotMatch(frame, /more lines/);
    opened.unmount();
  });

  it("a separator line between a resumed session's past and what follows", () => {
    const ui = render(
      <Transcript
        items={[
          { kind: "user", text: "before" },
          { kind: "separator", text: "resumed session 01ABC" },
        ]}
      />,
    );
    assert.match(ui.lastFrame() ?? "", /› before\n\n── resumed session 01ABC ──/);
    ui.unmount();
  });
});

describe("the status line and the input", () => {
  it("shows model, agent, mode, tokens of the window and cost", () => {
    const ui = render(
      <StatusLine
        status={{
          model: "anthropic/claude-sonnet-4-5",
          agent: "build",
          mode: "approve",
          tokens: 12_345,
          window: 200_000,
          cost: 0.0123,
        }}
      />,
    );
    assert.match(
      ui.lastFrame() ?? "",
      /anthropic\/claude-sonnet-4-5 · build · approve · 12k\/200k \(6%\) tokens · \$0\.0123/,
    );
    ui.unmount();
    // A window bosun assumed (the model is in no catalog or config) says so.
    const assumed = render(
      <StatusLine
        status={{
          model: "local/qwen",
          agent: "build",
          mode: "approve",
          tokens: 8_000,
          window: 32_000,
          windowAssumed: true,
        }}
      />,
    );
    assert.match(assumed.lastFrame() ?? "", /local\/qwen · build · approve · 8\.0k\/32k assumed \(25%\) tokens/);
    assumed.unmount();
  });

  it("sends on Enter, continues a line ending in \\, walks the history, collapses a large paste", async () => {
    const sent: string[] = [];
    const ui = render(<InputBox history={["earlier one", "earlier two"]} onSubmit={(t) => sent.push(t)} />);
    await tick();
    for (const key of ["h", "i", "\\", "\r", "there", "\r"]) {
      ui.stdin.write(key);
      await tick();
    }
    assert.deepEqual(sent, ["hi\nthere"]);
    ui.stdin.write("\u001b[A");
    await tick();
    await until(ui, /earlier two/);
    ui.stdin.write("\u001b[B");
    await tick();
    const big = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    ui.stdin.write(big);
    await tick();
    await until(ui, /\[pasted #0: 30 lines\]/);
    ui.stdin.write("\r");
    await tick();
    assert.equal(sent[1], big);
    ui.unmount();
  });

  it("Tab completes an @path: one match is filled in, several share their start and are listed; else Tab is passed on", async () => {
    const sent: string[] = [];
    let tabs = 0;
    const files = ["src/app.ts", "src/apple.ts", "README.md"];
    const complete = (partial: string) => files.filter((f) => f.startsWith(partial));
    const ui = render(
      <InputBox history={[]} onSubmit={(t) => sent.push(t)} complete={complete} onTab={() => tabs++} />,
    );
    await tick();
    ui.stdin.write("look at @sr");
    await tick();
    ui.stdin.write("\t");
    await tick();
    const listed = ui.lastFrame() ?? "";
    assert.match(listed, /look at @src\/app/);
    assert.match(listed, /src\/app\.ts {2}src\/apple\.ts/);
    ui.stdin.write("l");
    await tick();
    assert.doesNotMatch(ui.lastFrame() ?? "", /src\/app\.ts {2}/, "typing hides the list");
    ui.stdin.write("\t");
    await tick();
    ui.stdin.write("and @READ");
    await tick();
    ui.stdin.write("\t");
    await tick();
    ui.stdin.write("\r");
    await tick();
    assert.deepEqual(sent, ["look at @src/apple.ts and @README.md "]);
    assert.equal(tabs, 0, "every Tab completed");
    ui.stdin.write("plain");
    await tick();
    ui.stdin.write("\t");
    await tick();
    assert.equal(tabs, 1, "Tab with no @path is passed on (steer or queue)");
    ui.unmount();
  });

  it("the trust dialog shows what the repository would loosen and takes n, o, a and Esc", async () => {
    const loosening = { items: ["allow shell:touch *", "mode auto"], files: ["/w/bosun.json"], fingerprint: "sha-1" };
    for (const [key, expected] of [
      ["n", "no"],
      ["o", "once"],
      ["a", "always"],
      ["\u001b", "no"],
    ] as const) {
      const answers: string[] = [];
      const ui = render(<TrustDialog loosening={loosening} onAnswer={(a) => answers.push(a)} armDelayMs={0} />);
      await tick();
      const frame = ui.lastFrame() ?? "";
      assert.match(frame, /would let more run without asking/);
      assert.match(frame, /allow shell:touch \*[\s\S]*mode auto[\s\S]*from \/w\/bosun\.json/);
      assert.match(frame, /saves trust for sha-1/);
      ui.stdin.write(key);
      await tick();
      assert.deepEqual(answers, [expected], `key ${JSON.stringify(key)}`);
      ui.unmount();
    }
  });

  it("a dialog ignores keys for a moment after it opens, so a letter typed for the input answers nothing", async () => {
    const answers: string[] = [];
    const loosening = { items: ["mode auto"], files: ["/w/bosun.json"], fingerprint: "sha-1" };
    const ui = render(<TrustDialog loosening={loosening} onAnswer={(a) => answers.push(a)} />);
    await tick();
    await until(ui, /the choices open in a moment/);
    assert.doesNotMatch(ui.lastFrame() ?? "", /yes, always/);
    ui.stdin.write("a");
    await tick();
    assert.deepEqual(answers, [], "typed before the choices showed: ignored");
    await new Promise((resolve) => setTimeout(resolve, 450));
    await until(ui, /yes, always/);
    ui.stdin.write("o");
    await tick();
    assert.deepEqual(answers, ["once"]);
    ui.unmount();
  });
});
