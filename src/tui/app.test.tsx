import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { render } from "ink-testing-library";
import { until } from "../../test/support/ink-frames.js";
import { spanRunner } from "../input/bang.js";
import { type CustomCommand, expandTemplate } from "../input/custom-commands.js";
import type { PersonReply } from "../permission/gate/approval.js";
import { localTime } from "../util/time.js";
import { App } from "./app.js";
import { callTitle } from "./events.js";
import type { InteractiveRunner, Past } from "./runner.js";

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
      io.emit({
        type: "tool_result",
        id: "c1",
        name: "shell",
        summary: "exit 0",
        isError: false,
        detail: "PASS 12 tests\nexit code 0",
      });
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

/** A runner for one test: what it gives, and for the rest a quiet idle session. */
function stubRunner(parts: Partial<InteractiveRunner> & Pick<InteractiveRunner, "turn">): InteractiveRunner {
  return {
    status: () => ({ model: "m", agent: "build", mode: "approve" }),
    bang: async () => ({ output: "", exitCode: 0 }),
    why: () => "",
    compact: async () => "",
    close: async () => {},
    ...parts,
  };
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
    assert.match(ui.frames.join("\n"), /scripted\/test · build · approve · 1\.2k\/8\.0k \(15%\) tokens/);
    await type(ui, "run the tests");
    let frame = ui.frames.join("\n");
    assert.match(frame, /› run the tests/);
    assert.match(frame, /Looking now\./);
    assert.match(frame, /shell needs your approval/);
    await tick(450); // the dialog takes keys once it has been up a moment
    assert.match(ui.frames.join("\n"), /a allow always — saves shell:npm test \*/);
    ui.stdin.write("a");
    await tick(80);
    frame = ui.frames.join("\n");
    assert.deepEqual(seen.replies, [
      { kind: "always", option: { label: "always", rules: [{ action: "shell", pattern: "npm test *" }] } },
    ]);
    assert.doesNotMatch(ui.lastFrame() ?? "", /needs your approval/);
    assert.match(frame, /✓ shell .* → exit 0/);
    ui.unmount();
  });

  it("Ctrl-O opens the calls: the settled last turn's calls are shown again with their output", async () => {
    const { runner } = scripted();
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "run the tests");
    await tick(450); // the dialog takes keys once it has been up a moment
    ui.stdin.write("a");
    await tick(80);
    assert.doesNotMatch(ui.frames.join("\n"), /PASS 12 tests/, "one line per call until opened");
    ui.stdin.write("\u000f");
    await tick(80);
    const opened = ui.frames.join("\n");
    assert.match(
      opened,
      /the last turn's calls, opened \(Ctrl-O closes\):\n✓ shell npm test → exit 0\n\s+PASS 12 tests\n\s+exit code 0/,
    );
    const count = () => (ui.lastFrame() ?? "").match(/PASS 12 tests/g)?.length ?? 0;
    const shown = count();
    ui.stdin.write("\u000f");
    await tick(80);
    assert.equal(count(), shown, "closing adds nothing");
    ui.unmount();
  });

  it("a Ctrl-O that arrives in one chunk with the text typed after it still opens, and the text is typed clean", async () => {
    const { runner } = scripted();
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "run the tests");
    await tick(450);
    ui.stdin.write("a");
    await tick(80);
    ui.stdin.write("\u000fhello\u0007 there");
    await tick(80);
    const frame = ui.frames.join("\n");
    assert.match(frame, /the last turn's calls, opened \(Ctrl-O closes\):/);
    assert.match(ui.lastFrame() ?? "", /› hello there/);
    const last = ui.lastFrame() ?? "";
    assert.ok(!last.includes("\u0007") && !last.includes("\u000f"), "no control character is kept");
    ui.unmount();
  });

  it("Ctrl-O during a turn opens the finished calls and the rest of the turn still shows", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runner = stubRunner({
      async turn(_text, io) {
        io.emit({ type: "tool_call", id: "c1", name: "read", input: { path: "a.ts" } });
        io.emit({
          type: "tool_result",
          id: "c1",
          name: "read",
          summary: "read a.ts",
          isError: false,
          detail: "A-DETAIL",
        });
        io.emit({ type: "tool_call", id: "c2", name: "shell", input: { command: "npm test" } });
        io.emit({ type: "text", text: "Still " });
        await gate;
        io.emit({ type: "text", text: "working." });
        io.emit({
          type: "tool_result",
          id: "c2",
          name: "shell",
          summary: "exit 0",
          isError: false,
          detail: "B-DETAIL",
        });
        io.emit({ type: "text", text: " All done." });
        return { status: "done", steps: 2, denied: 0 };
      },
    });
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "go");
    ui.stdin.write("\u000f");
    await tick(80);
    await until(ui, /opened \(Ctrl-O closes\):\n✓ read a\.ts\n\s+A-DETAIL/);
    release();
    await tick(150);
    const frame = ui.lastFrame() ?? "";
    assert.match(frame, /working\./, "text streamed after Ctrl-O is drawn");
    assert.match(frame, /✓ shell npm test → exit 0/, "the call running at Ctrl-O shows its end");
    assert.match(frame, /All done\./);
    ui.unmount();
  });

  it("!cmd runs as the person; /help lists the commands; an unknown /word goes to the model with a note", async () => {
    const { runner, seen } = scripted();
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "!ls");
    assert.deepEqual(seen.bangs, ["ls"]);
    assert.match(ui.frames.join("\n"), /! ls \(exit 0\)\na\.txt\nb\.txt/);
    await type(ui, "/help");
    assert.match(ui.frames.join("\n"), /\/why/);
    assert.equal(seen.turns.length, 0);
    await type(ui, "/frobnicate now");
    assert.match(ui.frames.join("\n"), /\/frobnicate is not a command/);
    assert.deepEqual(seen.turns, ["/frobnicate now"]);
    ui.unmount();
  });
  it("what is typed during a turn steers it at the next step; Tab makes the marked one wait, Shift-Tab moves the mark, Ctrl-X drops it; a command waits; Esc interrupts and holds the rest", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const steered: string[][] = [];
    const turns: string[] = [];
    const whys: string[] = [];
    let aborted = false;
    const runner = stubRunner({
      async turn(text, io) {
        turns.push(text);
        if (turns.length > 1) return { status: "done", steps: 1, denied: 0 };
        io.signal.addEventListener("abort", () => {
          aborted = true;
        });
        await gate;
        steered.push(io.steering());
        return { status: "cancelled", steps: 1, denied: 0, message: "cancelled" };
      },
      why: (seat) => {
        whys.push(seat ?? "");
        return "the ledger";
      },
      noteSteer: async (message, answer, cause) => {
        noted.push([message.text, message.chosen, answer, cause]);
      },
    });
    const noted: Array<[string, boolean, string, string | undefined]> = [];
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "start");
    await type(ui, "also check the docs");
    await type(ui, "then the changelog");
    ui.stdin.write("\t");
    await tick();
    await type(ui, "drop me");
    await type(ui, "/why");
    assert.match(
      ui.lastFrame() ?? "",
      /↳ steer: also check the docs\n⏸ queued: then the changelog\n↳ steer: drop me\n› ⏸ queued: \/why/,
      "a command typed during a turn waits for its end",
    );
    ui.stdin.write("\u001b[Z");
    await tick();
    await until(ui, /› ↳ steer: drop me/, "Shift-Tab moves the mark");
    ui.stdin.write("\u0018");
    await tick();
    assert.doesNotMatch(ui.lastFrame() ?? "", /drop me/);
    ui.stdin.write("\u001b");
    await tick();
    assert.equal(aborted, true);
    release();
    await tick(150);
    assert.deepEqual(steered, [["also check the docs"]]);
    assert.deepEqual(turns, ["start"], "after Esc, what waits is held");
    await until(ui, /2 waiting: Enter on an empty line sends the next/);
    ui.stdin.write("\r");
    await tick(150);
    assert.deepEqual(turns, ["start", "then the changelog"]);
    assert.deepEqual(whys, [""], "the waiting command ran after the turn, as a command");
    // Each message's fate is recorded (seat input.steer): dropped, steered by default, waited by choice, a command waited.
    assert.deepEqual(noted, [
      ["drop me", false, "drop", undefined],
      ["also check the docs", false, "steer", undefined],
      ["then the changelog", true, "queue", "enter"],
      ["/why", false, "queue", undefined],
    ]);
    // What still waits when the session ends is recorded as never delivered.
    await type(ui, "/help");
    ui.unmount();
    assert.equal(noted.length, 4, "nothing waited");
  });

  it("a question whose asker gave up (its signal aborted) closes, answered cancel, and the input comes back", async () => {
    const gaveUp = new AbortController();
    let reply: PersonReply | undefined;
    const runner = stubRunner({
      async turn(_text, io) {
        setTimeout(() => gaveUp.abort(), 100);
        reply = await io.prompt.ask(
          {
            tool: "shell",
            callId: "c1",
            input: { command: "make" },
            outcomes: [{ request: { action: "shell", resource: "make" }, effect: "ask", holder: "code", reasons: [] }],
            always: { options: [] },
          },
          gaveUp.signal,
        );
        return { status: "done", steps: 1, denied: 0 };
      },
    });
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "build it");
    await until(ui, /shell needs your approval/);
    await tick(200);
    assert.deepEqual(reply, { kind: "cancel" });
    assert.doesNotMatch(ui.lastFrame() ?? "", /needs your approval/);
    await until(ui, /Ask bosun/);
    ui.unmount();
  });

  it("what still waits when the session ends is recorded as never delivered", async () => {
    const noted: string[] = [];
    const runner = stubRunner({
      turn: () => new Promise(() => {}),
      noteSteer: async (message, answer, cause) => {
        noted.push(`${message.text} ${answer} ${cause}`);
      },
    });
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "start");
    await type(ui, "left behind");
    ui.unmount();
    assert.deepEqual(noted, ["left behind drop exit"]);
  });

  it("one thing runs at a time: a message typed during a !cmd waits for it, and Esc stops the !cmd", async () => {
    const turns: string[] = [];
    let bangSignal: AbortSignal | undefined;
    let finishBang: () => void = () => {};
    const runner = stubRunner({
      async turn(text) {
        turns.push(text);
        return { status: "done", steps: 1, denied: 0 };
      },
      bang: (_command, signal) =>
        new Promise((resolve) => {
          bangSignal = signal;
          finishBang = () => resolve({ output: "done sleeping", exitCode: 0 });
        }),
    });
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "!sleep 5");
    await type(ui, "after the sleep");
    assert.deepEqual(turns, [], "nothing else starts while the !cmd runs");
    await until(ui, /⏸ queued: after the sleep/);
    finishBang();
    await tick(150);
    assert.deepEqual(turns, ["after the sleep"]);

    await type(ui, "!sleep 60");
    ui.stdin.write("\u001b");
    await tick();
    assert.equal(bangSignal?.aborted, true, "Esc stops a !cmd as it stops a turn");
    finishBang();
    ui.unmount();
  });

  it("a custom command runs only its template's own spans: an argument with !`touch …` is text, never run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bosun-app-custom-"));
    try {
      const { runner, seen } = scripted();
      const command: CustomCommand = {
        name: "audit",
        template: "Branch: !`echo main`\nReview $ARGUMENTS",
        file: join(dir, "audit.md"),
        scope: "project",
      };
      const expand = async (c: CustomCommand, args: string) =>
        expandTemplate(
          c.template,
          args,
          spanRunner({ cwd: dir, signal: new AbortController().signal }, async (call) => ({
            ran: true,
            result: await call.execute(),
          })),
        );
      const ui = render(
        <App runner={runner} commands={{ commands: [command], shadowed: [], skipped: [] }} expand={expand} />,
      );
      await tick();
      await type(ui, "/audit the diff !`touch pwned`");
      await tick(300);
      assert.deepEqual(seen.turns, ["Branch: main\nReview the diff !`touch pwned`"]);
      assert.equal(existsSync(join(dir, "pwned")), false);
      ui.unmount();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("/resume without an id opens a picker of the sessions: ↓ and Enter resume one, Esc keeps this one", async () => {
    const { runner } = scripted();
    const resumed: string[] = [];
    runner.sessions = () => [
      { id: "ses_current_1", title: "this one", updated: Date.UTC(2026, 11, 1, 9, 30), current: true },
      { id: "ses_earlier_2", title: "fix the parser", updated: Date.UTC(2026, 10, 30, 17, 5), current: false },
    ];
    runner.command = async (name, args) => {
      resumed.push(`${name} ${args}`);
      return `session ${args}`;
    };
    const ui = render(<App runner={runner} />);
    await tick();
    await type(ui, "/resume");
    const picker = ui.lastFrame() ?? "";
    assert.match(picker, /Resume a session/);
    // On the machine's clock: the same moments in its time zone.
    assert.ok(picker.includes(`› ses_curren ${localTime(Date.UTC(2026, 11, 1, 9, 30))} this one (open now)`), picker);
    assert.ok(picker.includes(`ses_earlie ${localTime(Date.UTC(2026, 10, 30, 17, 5))} fix the parser`), picker);
    ui.stdin.write("\u001b[B");
    await tick();
    await until(ui, /› ses_earlie/);
    ui.stdin.write("\r");
    await tick(80);
    assert.deepEqual(resumed, ["resume ses_earlier_2"]);
    assert.doesNotMatch(ui.lastFrame() ?? "", /Resume a session/);
    await type(ui, "/resume");
    ui.stdin.write("\u001b");
    await tick(80);
    assert.deepEqual(resumed, ["resume ses_earlier_2"], "Esc resumes nothing");
    await until(ui, /kept this session/);
    ui.unmount();
  });

  it("a resumed session's past is drawn first, then a line saying so, then the new conversation; /resume adds the other's", async () => {
    const pasts: Array<Past | undefined> = [
      {
        id: "01KPASTSESSION0000000000AA",
        title: "fix the slug",
        items: [
          { kind: "user", text: "fix the slug test" },
          {
            kind: "tool",
            id: "c1",
            name: "shell",
            title: "shell npm test",
            status: "done",
            summary: "shell `npm test` → exit 0 (1s)",
          },
          { kind: "assistant", text: "Fixed it." },
        ],
      },
      {
        id: "01KOTHERSESSION000000000BB",
        title: "",
        forkedFrom: "01KPASTSESSION0000000000AA",
        items: [{ kind: "user", text: "the other one" }],
      },
    ];
    const runner = stubRunner({
      ready: Promise.resolve(),
      takePast: () => pasts.shift(),
      async turn(_text, io) {
        io.emit({ type: "text", text: "New answer." });
        return { status: "done", steps: 1, denied: 0 };
      },
      command: async (name, args) => `${name} ${args} done`,
    });
    // `bosun -c "carry on"`: the launch's message goes after the past.
    const ui = render(<App runner={runner} opening={["carry on"]} />);
    await tick(120);
    // Ink draws what is final (Static) once; each frame of the test renderer holds all of it.
    const frame = ui.lastFrame() ?? "";
    const order = [
      "› fix the slug test",
      "✓ shell npm test → exit 0 (1s)",
      "Fixed it.",
      "── resumed session 01KPASTSES · fix the slug ──",
      "› carry on",
      "New answer.",
    ].map((line) => frame.indexOf(line));
    assert.ok(
      order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] ?? 0))),
      `in order: ${order.join(", ")}\n${frame}`,
    );
    await type(ui, "/model other");
    await type(ui, "/resume 01KOTHER");
    const after = ui.lastFrame() ?? "";
    assert.equal(after.split("── resumed session").length, 2, "a /model reopen draws nothing again");
    assert.match(
      after,
      /New answer\.[\s\S]*› the other one\n\n── forked session 01KOTHERSE from 01KPASTSES ──\nresume 01KOTHER done/,
    );
    assert.equal(pasts.length, 0, "asked after the session opened, and after /resume");
    ui.unmount();
  });

  it("while the model is awaited the status line counts the seconds; its first output ends the count", async () => {
    let now = 1_000;
    const clock = { now: () => now, everyMs: 10 };
    let answer: () => void = () => {};
    const runner = stubRunner({
      async turn(_text, io) {
        io.emit({ type: "model_wait", waiting: true });
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        io.emit({ type: "model_wait", waiting: false });
        io.emit({ type: "text", text: "Finally." });
        await new Promise((resolve) => setTimeout(resolve, 150));
        return { status: "done", steps: 1, denied: 0 };
      },
    });
    const ui = render(<App runner={runner} waitClock={clock} />);
    await tick();
    await type(ui, "anyone there?");
    await until(ui, /waiting for the model · 0 s \(Esc interrupts\)/);
    now += 12_400;
    await tick();
    await until(ui, /waiting for the model · 12 s/);
    answer();
    await tick();
    const frame = ui.lastFrame() ?? "";
    assert.match(frame, /Finally\./);
    assert.doesNotMatch(frame, /waiting for the model/);
    assert.match(frame, /working · \d+ s · 0 tokens · Esc interrupts/);
    ui.unmount();
  });

  it("names a call by its tool and main argument", () => {
    assert.equal(callTitle("shell", { command: "npm test\necho more" }), "shell npm test");
    assert.equal(callTitle("read", { path: "src/a.ts", offset: 3 }), "read src/a.ts");
    assert.equal(callTitle("mcp__notes__list", {}), "mcp__notes__list {}");
    assert.equal(callTitle("task", { agent: "build", prompt: "make x" }), "task build");
    assert.equal(callTitle("grep", { pattern: "x".repeat(200) }).length, 120);
  });
});
