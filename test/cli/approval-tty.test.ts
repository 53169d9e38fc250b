import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { listApprovals, type SavedApproval } from "../../src/store/saved-approvals.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { KEYS, type Pty, spawnPty } from "../support/pty.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { BOSUN_BIN } from "../support/workspace.js";

/**
 * The person's seat at a real terminal: `bosun run "<message>"` in a pseudo-terminal, the
 * approval prompt drawn on it, answered with real keys (prompt-terminal.ts).
 */

const done = { reply: { text: "All done." } };
const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: "shell", arguments: { command } }] });

/** `bosun run <message>` with a terminal on stdin, stdout and stderr: a person can be asked. */
function runInTerminal(s: Scenario, message: string, flags: string[] = []): Pty {
  return spawnPty(process.execPath, [BOSUN_BIN, "run", ...flags, message], {
    cwd: s.ws.dir,
    env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
    // Wide enough that a long temp path in a hint or the note is never wrapped.
    cols: 200,
  });
}

/** The choice of "Allow this call?", driven by arrow keys; each keypress redraws it, the active option marked ●. */
interface Choice {
  /** Moves down to `label`; returns its line as shown while active (the label and its hint in parentheses). */
  highlight(label: string): Promise<string>;
  /** Highlights `label` and presses Enter. */
  choose(label: string): Promise<string>;
}

async function approvalChoice(p: Pty): Promise<Choice> {
  await p.waitForText(/Allow this call\?/);
  const activeLine = async () => ((await p.waitForText(/● (.*)\n/))[1] ?? "").trim();
  let active = await activeLine();
  const is = (label: string) => active === label || active.startsWith(`${label} (`);
  const choice: Choice = {
    async highlight(label) {
      const passed = [active];
      for (let moves = 0; !is(label); moves++) {
        if (moves >= 6) throw new Error(`no option "${label}" in the prompt (passed ${passed.join(" | ")})`);
        p.write(KEYS.down);
        active = await activeLine();
        passed.push(active);
      }
      return active;
    },
    async choose(label) {
      const line = await choice.highlight(label);
      p.write(KEYS.enter);
      return line;
    },
  };
  return choice;
}

function savedApprovals(s: Scenario): SavedApproval[] {
  const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
  try {
    return listApprovals(store, realpathSync(s.ws.dir));
  } finally {
    store.close();
  }
}

/** Runs `body` against a fresh scenario; the terminal's process and the scenario always go. */
async function withScenario(
  rules: Parameters<typeof startScenario>[0]["rules"],
  body: (s: Scenario, terminals: Pty[]) => Promise<void>,
): Promise<void> {
  const s = await startScenario({ rules });
  const terminals: Pty[] = [];
  try {
    await body(s, terminals);
  } finally {
    for (const p of terminals) p.kill();
    await Promise.all(terminals.map((p) => p.exit(5_000).catch(() => undefined)));
    await s.close();
  }
}

describe("bosun run at a terminal: the approval prompt", () => {
  it("allow once: shows the call's requests, runs it, saves nothing", async () => {
    await withScenario([{ match: { request: 1 }, reply: shell("c1", "touch made.txt") }, done], async (s, ts) => {
      const p = runInTerminal(s, "make the file");
      ts.push(p);
      await p.waitForText(/shell needs your approval/);
      await p.waitForText(/\? asks\s+shell:touch made\.txt \(writes\)/);
      const choice = await approvalChoice(p);
      assert.equal(await choice.choose("Allow once"), "Allow once");
      await p.waitForText(/✓ shell `touch made\.txt`/);
      await p.waitForText(/All done\./);
      assert.equal(await p.exit(), 0, p.text());
      const options = p.text().match(/Allow this call\?\n([\s\S]*?)└/)?.[1] ?? "";
      assert.deepEqual(
        options.split("\n").map((line) => line.replace(/^│\s*/, "")),
        [
          "● Allow once",
          "○ Allow always",
          "○ Deny",
          "○ Deny, and tell the agent why",
          "↑/↓ to navigate • Enter: confirm",
          "",
        ],
        "no whole-folder option for a shell command; a hint only on the active option",
      );
      assert.ok(existsSync(join(s.ws.dir, "made.txt")));
      const { decisions } = s.latest();
      expectDecision(decisions, "call.permission", "code", "ask");
      expectDecision(decisions, "call.approval", "person", "allow-once");
      assert.deepEqual(savedApprovals(s), []);
    });
  });

  it("an edit bound to fail (a file not read) is not put to the person: the model is told, then asks properly", async () => {
    const edit = (id: string) => ({
      toolCalls: [{ id, name: "edit", arguments: { path: "notes.txt", old_string: "one", new_string: "two" } }],
    });
    await withScenario(
      [
        { match: { request: 1 }, reply: edit("e1") },
        { match: { request: 2 }, reply: { toolCalls: [{ id: "r1", name: "read", arguments: { path: "notes.txt" } }] } },
        { match: { request: 3 }, reply: edit("e2") },
        { match: { request: 4 }, ...done },
      ],
      async (s, ts) => {
        s.ws.write("notes.txt", "one\n");
        const p = runInTerminal(s, "change the notes");
        ts.push(p);
        // The first prompt shown is for the second edit, after the read: the first was never asked.
        await p.waitForText(/edit needs your approval/);
        assert.equal(s.server.requests.length, 3, "asked only once the file was read");
        assert.equal(await (await approvalChoice(p)).choose("Allow once"), "Allow once");
        assert.equal(await p.exit(), 0, p.text());
        assert.equal(p.text().match(/edit needs your approval/g)?.length, 1, p.text());
        assert.equal(readFileSync(join(s.ws.dir, "notes.txt"), "utf8"), "two\n");
        const told = s.server.requests[1]?.normalized?.messages.at(-1)?.text ?? "";
        assert.match(told, /Not run: you have not read notes\.txt in this session; read it first\./);
        const approvals = s.latest().decisions.filter((d) => d.seat === "call.approval");
        assert.deepEqual(
          approvals.map((d) => [d.subject?.call, d.holder, d.answer]),
          [
            ["e1", "code", "not asked"],
            ["e2", "person", "allow-once"],
          ],
        );
        assert.match(approvals[0]?.reasons[0]?.detail ?? "", /you have not read notes\.txt/);
      },
    );
  });

  it("allow always is in force for the very next call of the same turn: it is not asked again", async () => {
    await withScenario(
      [
        { match: { request: 1 }, reply: shell("c1", "touch a.txt") },
        { match: { request: 2 }, reply: shell("c2", "touch b.txt") },
        { match: { request: 3 }, ...done },
      ],
      async (s, ts) => {
        const p = runInTerminal(s, "make a, then b");
        ts.push(p);
        assert.equal(await (await approvalChoice(p)).choose("Allow always"), "Allow always (saves shell:touch *)");
        assert.equal(await p.exit(), 0, p.text());
        assert.ok(existsSync(join(s.ws.dir, "b.txt")));
        assert.equal(p.text().match(/needs your approval/g)?.length, 1, p.text());
        const { decisions } = s.latest();
        const permissions = decisions.filter((d) => d.seat === "call.permission");
        assert.deepEqual(
          permissions.map((d) => [d.subject?.call, d.holder, d.answer]),
          [
            ["c1", "code", "ask"],
            ["c2", "person", "allow"],
          ],
        );
        assert.deepEqual(
          decisions.filter((d) => d.seat === "call.approval").map((d) => [d.subject?.call, d.answer]),
          [["c1", "allow-always"]],
        );
      },
    );
  });

  it("allow always: saves exactly the shown pattern, which later runs use and which can be revoked", async () => {
    await withScenario(
      [
        { match: { request: 1 }, reply: shell("c1", "touch a.txt") },
        { match: { request: 2 }, ...done },
        { match: { request: 3 }, reply: shell("c2", "touch b.txt") },
        { match: { request: 4 }, ...done },
        { match: { request: 5 }, reply: shell("c3", "touch c.txt && rm a.txt") },
        { match: { request: 6 }, ...done },
      ],
      async (s, ts) => {
        const p = runInTerminal(s, "make a");
        ts.push(p);
        // The hint names what will be saved before anything is.
        assert.equal(await (await approvalChoice(p)).choose("Allow always"), "Allow always (saves shell:touch *)");
        assert.equal(await p.exit(), 0, p.text());
        assert.ok(existsSync(join(s.ws.dir, "a.txt")));
        expectDecision(s.latest().decisions, "call.approval", "person", "allow-always");
        const saved = savedApprovals(s);
        assert.deepEqual(
          saved.map((a) => [a.action, a.pattern, a.tool]),
          [["shell", "touch *", "shell"]],
        );
        const id = saved[0]?.id;
        const list = await s.run(["permissions", "list"]);
        assert.equal(list.code, 0, list.stderr);
        assert.match(list.stdout, new RegExp(`^${id}\\s+allow shell:touch \\*\\s`, "m"));

        // Another touch, with nobody to ask: the saved approval allows it, as the person's.
        const second = await s.run(["run", "make b"]);
        assert.equal(second.code, 0, second.stderr);
        assert.ok(existsSync(join(s.ws.dir, "b.txt")));
        const { decisions } = s.latest();
        expectDecision(decisions, "call.permission", "person", "allow");
        assert.ok(!decisions.some((d) => d.seat === "call.approval"), "a saved approval asks nobody");

        // It covers touch only: the rm in the same line still asks, and nobody is there to say yes.
        const third = await s.run(["run", "make c, drop a"]);
        assert.equal(third.code, 3, third.stderr);
        assert.ok(existsSync(join(s.ws.dir, "a.txt")), "a.txt must stay");
        assert.ok(!existsSync(join(s.ws.dir, "c.txt")), "a denied call runs none of its commands");
        const thirdDecisions = s.latest().decisions;
        expectDecision(thirdDecisions, "call.permission", "code", "ask");
        expectDecision(thirdDecisions, "call.approval", "code", "deny");

        const revoke = await s.run(["permissions", "revoke", String(id)]);
        assert.equal(revoke.code, 0, revoke.stderr);
        assert.match(revoke.stdout, new RegExp(`^revoked ${id}: allow shell:touch \\*`, "m"));
        assert.deepEqual(savedApprovals(s), []);
        assert.match((await s.run(["permissions", "list"])).stdout, /no saved approvals/);
      },
    );
  });

  it("write: shows the diff, and the whole-folder option names its folder", async () => {
    await withScenario(
      [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "notes/todo.txt" } }] },
        },
        {
          match: { request: 2 },
          reply: {
            toolCalls: [
              { id: "c2", name: "write", arguments: { path: "notes/todo.txt", content: "keep\nnew line\n" } },
            ],
          },
        },
        done,
      ],
      async (s, ts) => {
        s.ws.write("notes/todo.txt", "keep\nold line\n");
        const file = join(realpathSync(s.ws.dir), "notes", "todo.txt");
        const p = runInTerminal(s, "update the notes");
        ts.push(p);
        await p.waitForText(/write needs your approval/);
        // The note's lines, inside its frame.
        const note = (await p.waitForText(/\? asks[\s\S]*?╯/))[0]
          .split("\n")
          .map((line) => line.replace(/^│ {2}/, "").replace(/\s*│$/, ""));
        const choice = await approvalChoice(p);
        assert.equal(await choice.highlight("Allow always"), `Allow always (saves edit:${file})`);
        assert.equal(
          await choice.choose("Allow always, whole folder"),
          `Allow always, whole folder (saves edit:${join(realpathSync(s.ws.dir), "notes")}/**)`,
        );
        assert.equal(await p.exit(), 0, p.text());
        assert.equal(readFileSync(file, "utf8"), "keep\nnew line\n");
        expectDecision(s.latest().decisions, "call.approval", "person", "allow-always");
        assert.deepEqual(
          savedApprovals(s).map((a) => `${a.action}:${a.pattern}`),
          [`edit:${join(realpathSync(s.ws.dir), "notes")}/**`],
        );
        assert.deepEqual(note.slice(0, 9), [
          `? asks     edit:${file}`,
          "",
          // The unified diff's own header and hunks, nothing before them (preview.ts drops the banner).
          "--- notes/todo.txt",
          "+++ notes/todo.txt",
          "@@ -1,2 +1,2 @@",
          " keep",
          "-old line",
          "+new line",
          "",
        ]);
      },
    );
  });

  it("deny: the call does not run and the model is told the user denied it", async () => {
    await withScenario([{ match: { request: 1 }, reply: shell("c1", "ls && touch made.txt") }, done], async (s, ts) => {
      const p = runInTerminal(s, "make the file");
      ts.push(p);
      // Every request with the rules' answer; only the asking one is what "always" would save.
      await p.waitForText(/✓ allowed\s+shell:ls\s/);
      await p.waitForText(/\? asks\s+shell:touch made\.txt \(writes\)/);
      const choice = await approvalChoice(p);
      assert.equal(await choice.highlight("Allow always"), "Allow always (saves shell:touch *)");
      await choice.choose("Deny");
      // The person's no is a denial: exit 3 as documented, and the last line says denied, never done.
      assert.equal(await p.exit(), 3, p.text());
      assert.match(p.text(), /\[denied · 1 call\(s\) denied · 2 step\(s\) · session /);
      assert.doesNotMatch(p.text(), /\[done/);
      assert.ok(!existsSync(join(s.ws.dir, "made.txt")));
      expectDecision(s.latest().decisions, "call.approval", "person", "deny");
      assert.match(s.server.request(2).normalized?.messages.at(-1)?.text ?? "", /Denied by the user\./);
      assert.deepEqual(savedApprovals(s), []);
      // The person said no: advice to approve with --auto is for runs where nobody could be asked.
      assert.doesNotMatch(p.text(), /run with --auto/, "the person denied it; nobody needs --auto");
    });
  });

  it("deny with --format json: the done event's denied, its status and the exit code agree", async () => {
    await withScenario([{ match: { request: 1 }, reply: shell("c1", "touch made.txt") }, done], async (s, ts) => {
      const p = runInTerminal(s, "make the file", ["--format", "json"]);
      ts.push(p);
      await (await approvalChoice(p)).choose("Deny");
      assert.equal(await p.exit(), 3, p.text());
      const last = p.text().match(/\{"v":1,"seq":\d+,"type":"done"[^\n]*\}/)?.[0];
      assert.ok(last, p.text());
      const { status, steps, denied, session, exitCode } = JSON.parse(last);
      assert.deepEqual(
        { status, steps, denied, session, exitCode },
        { status: "denied", steps: 2, denied: 1, session: s.latest().id, exitCode: 3 },
      );
    });
  });

  it("deny with a message: asks for it, insists on one, and the model gets it word for word", async () => {
    await withScenario([{ match: { request: 1 }, reply: shell("c1", "touch made.txt") }, done], async (s, ts) => {
      const p = runInTerminal(s, "make the file");
      ts.push(p);
      await (await approvalChoice(p)).choose("Deny, and tell the agent why");
      await p.waitForText(/What should the agent know\?/);
      p.write(KEYS.enter);
      await p.waitForText(/write a message, or press Ctrl-C to leave/);
      p.write("use the Makefile's touch target instead");
      await p.waitForText(/use the Makefile's touch target instead/);
      p.write(KEYS.enter);
      assert.equal(await p.exit(), 3, p.text());
      assert.ok(!existsSync(join(s.ws.dir, "made.txt")));
      const approval = expectDecision(s.latest().decisions, "call.approval", "person", "deny-with-message");
      assert.equal(approval.reasons[0]?.detail, "use the Makefile's touch target instead");
      assert.match(
        s.server.request(2).normalized?.messages.at(-1)?.text ?? "",
        /Denied by the user, who says: use the Makefile's touch target instead$/,
      );
    });
  });

  it("Ctrl-C at the prompt: the call is denied, the turn stops, exit 130", async () => {
    await withScenario([{ match: { request: 1 }, reply: shell("c1", "touch made.txt") }, done], async (s, ts) => {
      const p = runInTerminal(s, "make the file");
      ts.push(p);
      await approvalChoice(p);
      p.write(KEYS.ctrlC);
      await p.waitForText(/\[cancelled · /);
      assert.equal(await p.exit(), 130, p.text());
      assert.ok(!existsSync(join(s.ws.dir, "made.txt")));
      expectDecision(s.latest().decisions, "call.approval", "person", "deny");
      assert.equal(s.server.requests.length, 1, "the turn stops: the model is not asked again");
      assert.match(p.text(), /stopped: the person left the approval prompt/);
      assert.doesNotMatch(p.text(), /run with --auto/, "the person left; nobody needs --auto");
    });
  });

  it("a call the rules allow shows no prompt", async () => {
    await withScenario(
      [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { id: "c1", name: "read", arguments: { path: "a.txt" } },
              { id: "c2", name: "shell", arguments: { command: "ls" } },
            ],
          },
        },
        done,
      ],
      async (s, ts) => {
        s.ws.write("a.txt", "hello\n");
        const p = runInTerminal(s, "look");
        ts.push(p);
        await p.waitForText(/All done\./);
        assert.equal(await p.exit(), 0, p.text());
        assert.doesNotMatch(p.text(), /needs your approval|Allow this call/);
        const { decisions } = s.latest();
        expectDecision(decisions, "call.permission", "code", "allow");
        assert.ok(!decisions.some((d) => d.seat === "call.approval"));
      },
    );
  });

  it("asks whether to trust what the repository's bosun.json would loosen; always is saved for that content", async () => {
    await withScenario(
      [{ match: { lastMessage: "go" }, reply: shell("c1", "touch trusted.txt") }, { reply: { text: "All done." } }],
      async (s, ts) => {
        const config = JSON.parse(readFileSync(join(s.ws.dir, "bosun.json"), "utf8"));
        s.ws.write("bosun.json", JSON.stringify({ ...config, permission: { shell: { "touch *": "allow" } } }));
        const p = runInTerminal(s, "go");
        ts.push(p);
        await p.waitForText(/This repository's bosun\.json would let more run without asking/);
        await p.waitForText(/allow shell:touch \*/);
        await p.waitForText(/Trust these settings\?/);
        p.write(KEYS.down);
        p.write(KEYS.down);
        await p.waitForText(/● Yes, always for this exact content/);
        p.write(KEYS.enter);
        await p.waitForText(/All done\./);
        assert.equal(await p.exit(), 0, p.text());
        assert.doesNotMatch(p.text(), /Allow this call/, "the trusted allow rule ran the call without a prompt");
        assert.ok(existsSync(join(s.ws.dir, "trusted.txt")));
        expectDecision(s.latest().decisions, "project.trust", "person", "trusted");
        // Saved: a later run without a terminal trusts the same content, and says so.
        const again = await s.run(["run", "go"]);
        assert.equal(again.code, 0, again.stderr);
        const trust = expectDecision(s.latest().decisions, "project.trust", "person", "trusted");
        assert.equal(trust.reasons[0]?.rule, "trusted before");
        const listed = await s.run(["permissions", "list"]);
        assert.match(listed.stdout, /^t1 +trust the repository's allow shell:touch \* /m);
        assert.match(
          (await s.run(["permissions", "revoke", "t1"])).stdout,
          /^revoked t1: trust in allow shell:touch \*/,
        );
        await s.run(["run", "go"]);
        expectDecision(s.latest().decisions, "project.trust", "code", "untrusted");
        // A trust saved for other content does not carry over.
        s.ws.write(
          "bosun.json",
          JSON.stringify({ ...config, permission: { shell: { "touch *": "allow", "rm *": "allow" } } }),
        );
        await s.run(["run", "go"]);
        expectDecision(s.latest().decisions, "project.trust", "code", "untrusted");
      },
    );
  });
});
