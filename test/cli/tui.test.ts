import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";

/**
 * The scenario's environment with `CI` set, as on a CI runner or in a shell that exports it: Ink
 * draws nothing under `CI` unless bosun keeps that from it, and the session's commands still see it.
 */
const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

describe("the interactive session in a real terminal (tmux)", () => {
  it("starts, streams an answer, takes an approval with always (saved), runs !ls, shows /why, steers, is interrupted by Esc, compacts, switches mode, lists sessions, exits", async () => {
    const s = await startScenario({
      rules: [
        // The small model names the session from its first message (seat session.title).
        { match: { system: "title of a coding session" }, reply: { text: "Streaming a short demo" } },
        // A slow stream: the answer shows word by word, before it is whole.
        {
          match: { lastMessage: "stream a little" },
          reply: { text: "Alpha bravo charlie delta echo foxtrot golf hotel.", frameDelayMs: 250 },
        },
        {
          match: { lastMessage: "make the file" },
          reply: {
            text: "I will create it.",
            toolCalls: [{ id: "t1", name: "shell", arguments: { command: "touch made.txt" } }],
          },
        },
        { match: { lastMessage: "tool_result t1" }, reply: { text: "Created made.txt for you." } },
        {
          match: { lastMessage: "write the notes" },
          reply: {
            toolCalls: [{ id: "w1", name: "write", arguments: { path: "notes.md", content: "# Notes\nship it\n" } }],
          },
        },
        { match: { lastMessage: "tool_result w1" }, reply: { text: "Wrote the notes." } },
        // Steering: the first reply is slow; what the person types meanwhile reaches the next request.
        {
          match: { lastMessage: "slow task" },
          reply: { delayMs: 3000, toolCalls: [{ id: "l1", name: "list", arguments: {} }] },
        },
        { match: { lastMessage: "also say hi" }, reply: { text: "Steered: hi." } },
        // Esc mid-step: a reply that would take far longer than the test waits.
        { match: { lastMessage: "very slow" }, reply: { delayMs: 20_000, text: "too late" } },
        { match: { lastMessage: "after the interrupt" }, reply: { text: "Still here." } },
        // Esc while a tool runs: the command's process is stopped, the session goes on.
        {
          match: { lastMessage: "wait on a command" },
          reply: { toolCalls: [{ id: "z1", name: "shell", arguments: { command: "sleep 30 && touch slept.txt" } }] },
        },
        { match: { lastMessage: "after the command" }, reply: { text: "Carrying on." } },
        { match: { lastMessage: "NOTES-CONTENT" }, reply: { text: "Saw the notes." } },
        // /compact: the summary request (no tools; its system prompt names the sections).
        {
          match: { system: "## Relevant files" },
          reply: {
            text: "## Goal\nDemo.\n## Decisions\nNone.\n## State of work\nmade.txt exists.\n## Next step\nNone.\n## Relevant files\n- made.txt",
          },
        },
      ],
    });
    s.setUserConfig({ small_model: "scripted/small-model" });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/Ask bosun/);
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("stream a little");
      const partial = await term.waitFor(/Alpha bravo/);
      assert.doesNotMatch(partial, /hotel\./, "the answer is drawn as it streams, before it is whole");
      await term.waitFor(/foxtrot golf hotel\./);
      term.type("make the file");
      await term.waitFor(/shell needs your approval/);
      const dialog = await term.waitFor(/a allow always/);
      assert.match(dialog, /\? asks\s+shell:touch made\.txt/);
      assert.match(dialog, /a allow always/);
      assert.equal(existsSync(join(s.ws.dir, "made.txt")), false, "nothing runs while the dialog is open");
      term.type("a", false);
      await term.waitFor(/Created made\.txt for you\./);
      assert.ok(existsSync(join(s.ws.dir, "made.txt")));

      term.type("!ls");
      await term.waitFor(/! ls \(exit 0\)/);
      // An edit's dialog shows its diff; allowed once, the diff opens again with Ctrl-O.
      term.type("write the notes");
      const edit = await term.waitFor(/o allow once/);
      assert.match(edit, /write needs your approval[\s\S]*\+\+\+ notes\.md[\s\S]*\+# Notes[\s\S]*\+ship it/);
      term.type("o", false);
      await term.waitFor(/Wrote the notes\./);
      assert.equal(readFileSync(join(s.ws.dir, "notes.md"), "utf8"), "# Notes\nship it\n");
      term.keys("C-o");
      await term.waitFor(
        /the last turn's calls, opened \(Ctrl-O closes\):\s*\n✓ write notes\.md[^\n]*\n\s+--- notes\.md/,
      );
      term.keys("C-o");
      term.type("/why call.approval");
      // The ledger view of `bosun why`, fitted to the terminal: by turn, step and call.
      await term.waitFor(
        /turn \d+ · make the file\n +step 1\n +call t1: shell touch made\.txt\n +call\.approval +person +allow-always/,
      );
      term.type("/why modle.*");
      await term.waitFor(/no seat matches "modle\.\*"; the seats are:\n +config\.\* +load/);
      term.type("slow task");
      await term.waitFor(/waiting for the model · \d+ s \(Esc interrupts\)/);
      term.type("also say hi");
      await term.waitFor(/Steered: hi\./);
      assert.match(term.screen(), /› also say hi/);

      term.type("very slow");
      await term.waitFor(/waiting for the model · \d+ s \(Esc interrupts\)/);
      term.keys("Escape");
      await term.waitFor(/interrupted; the session stays as it was/);
      term.type("after the interrupt");
      await term.waitFor(/Still here\./);
      // sleep is read-only and `touch *` was allowed always above: it runs without asking.
      term.type("wait on a command");
      await term.waitFor(/… shell sleep 30/);
      term.keys("Escape");
      // A second notice: the first is the model wait's, above.
      await term.waitFor(/interrupted; the session stays as it was[\s\S]*interrupted; the session stays as it was/);
      term.type("after the command");
      await term.waitFor(/Carrying on\./);
      assert.equal(existsSync(join(s.ws.dir, "slept.txt")), false, "the command was stopped");

      s.ws.write("notes.txt", "NOTES-CONTENT\n");
      term.type("summarise @notes.txt please");
      await term.waitFor(/Saw the notes\./);
      assert.match(
        s.server.requests.at(-1)?.normalized?.messages.at(-1)?.text ?? "",
        /<file path="notes\.txt">\nNOTES-CONTENT/,
      );

      term.type("/compact");
      await term.waitFor(/compacted: ~\d+ → ~\d+ tokens; the full history stays in the store/);
      term.type("/cost");
      await term.waitFor(/this session: [\d,]+ in \(cache read \d+, write \d+\), [\d,]+ out, \d+ request\(s\); cost /);
      term.type("/mode chat");
      await term.waitFor(/scripted\/test-model · build · chat/);
      term.type("/sessions");
      await term.waitFor(/\d{4}-\d\d-\d\d \d\d:\d\d \([^)]*\) {2}Streaming a short demo/);
      term.type("/resume");
      await term.waitFor(
        /Resume a session[\s\S]*› \w{10} \d{4}-\d\d-\d\d \d\d:\d\d Streaming a short demo \(open now\)/,
      );
      term.keys("Escape");
      await term.waitFor(/kept this session/);

      term.type("/exit");
      const until = Date.now() + 10_000;
      while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      assert.ok(term.exited(), term.screen());

      const { decisions } = s.latest();
      expectDecision(decisions, "call.approval", "person", "allow-always");
      expectDecision(decisions, "input.command", "person");
      expectDecision(decisions, "input.steer", "code", "steer");
      expectDecision(decisions, "session.title", "model", "Streaming a short demo");
      expectDecision(decisions, "compaction.summary", "model");
      expectDecision(decisions, "permission.mode", "person", "chat");
      const saved = await s.run(["permissions", "list", "--json"]);
      assert.match(saved.stdout, /"pattern":\s*"touch \*"/);
    } finally {
      term.kill();
      await s.close();
    }
  });
  it("a session resumed from another directory: the person is asked; non-interactive stays and warns (session.cwd)", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "first" }, reply: { text: "First done." } },
        { match: { lastMessage: "from elsewhere" }, reply: { text: "Stayed." } },
        { match: { lastMessage: "back home" }, reply: { text: "Switched." } },
      ],
    });
    // Outside the repository: a folder of the same repository is not elsewhere.
    const other = join(s.ws.dir, "..", "elsewhere");
    mkdirSync(other);
    let term: ReturnType<typeof startTmux> | undefined;
    try {
      assert.equal((await s.run(["run", "first"])).code, 0);
      const { id } = s.latest();
      const stayed = await s.ws.run(["run", "-s", id, "from elsewhere"], { cwd: other });
      assert.equal(stayed.code, 0, stayed.stderr);
      assert.match(
        stayed.stderr,
        new RegExp(`session ${id.slice(0, 10)} was started in ${s.ws.dir}; working here, in ${other}`),
      );
      expectDecision(s.latest().decisions, "session.cwd", "code", "stay");

      term = startTmux({ cwd: other, env: terminalEnv(s.ws.env), args: ["-s", id] });
      await term.waitFor(/This session was started in .*\. Work there\?/);
      term.keys("Enter");
      await term.waitFor(/Ask bosun/);
      term.type("!echo ci=$CI");
      await term.waitFor(/ci=true/);
      term.type("back home");
      await term.waitFor(/Switched\./);
      const switched = s.latest();
      // A new session from here is here: the answer about the old one is not carried to it.
      term.type("/new");
      await term.waitFor(/session \w{10} · scripted\/test-model · build · approve/);
      term.type("first");
      // The second on screen: the first is in the past `-s` redrew.
      await term.waitFor(/First done\.[\s\S]*First done\./);
      assert.notEqual(s.latest().id, switched.id);
      assert.equal(s.latest().decisions.filter((d) => d.seat === "session.cwd").length, 0);
      // /resume <id> goes back to it, with its conversation.
      term.type(`/resume ${switched.id.slice(0, 10)}`);
      await term.waitFor(new RegExp(`session ${switched.id.slice(0, 10)} · scripted/test-model`));
      term.type("back home");
      // The third on screen: the second is in the past /resume redrew.
      await term.waitFor(/Switched\.[\s\S]*Switched\.[\s\S]*Switched\./);
      const resumed =
        s.server.requests
          .at(-1)
          ?.normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(resumed, /from elsewhere[\s\S]*back home[\s\S]*back home/);
      const switchedRequest = s.server.requests.at(-1);
      // /resume of a session started elsewhere stays here, says so in the transcript, and records why nobody was asked.
      const away = await s.ws.run(["run", "first"], { cwd: other });
      assert.equal(away.code, 0, away.stderr);
      const elsewhere = s.latest();
      term.type(`/resume ${elsewhere.id.slice(0, 10)}`);
      await term.waitFor(
        new RegExp(`bosun: session ${elsewhere.id.slice(0, 10)} was started in ${other}; working here`),
      );
      const unasked = s
        .latest()
        .decisions.filter((d) => d.seat === "session.cwd")
        .at(-1);
      expectDecision(unasked ? [unasked] : [], "session.cwd", "code", "stay");
      assert.match(
        unasked?.reasons.find((r) => r.decisive)?.detail ?? "",
        /resumed with \/resume in the interactive session/,
      );
      term.type("/exit");
      // The latest answer of the seat: this run's.
      const decisions = switched.decisions.filter((d) => d.seat === "session.cwd");
      assert.equal(decisions.length, 2);
      expectDecision(decisions.slice(-1), "session.cwd", "person", "switch");
      const env = switchedRequest?.normalized?.messages.map((m) => m.text).join("\n") ?? "";
      assert.match(env, new RegExp(`working directory: ${s.ws.dir}\n`));
    } finally {
      term?.kill();
      await s.close();
    }
  });
  it("a repository's custom command: its spans are judged like shell calls (asked, denied here), proven ones run confined", async () => {
    const s = await startScenario({
      rules: [{ match: { lastMessage: "Files:" }, reply: { text: "Got the expansion." } }],
    });
    s.ws.write(
      ".bosun/commands/risky.md",
      "---\ndescription: a command a cloned repository brings\n---\nFiles: !`ls .bosun`\nMade: !`touch spanned.txt && echo made`\nSee @secret.txt\n$ARGUMENTS\n",
    );
    // A template's @path attaches nothing; the person's own (in the arguments) does.
    s.ws.write("secret.txt", "SECRET-CONTENT\n");
    s.ws.write("notes.txt", "NOTES-CONTENT\n");
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/Ask bosun/);
      await term.waitFor(/scripted\/test-model/);
      term.type("/risky now @notes.txt");
      await term.waitFor(/shell needs your approval/);
      assert.match(await term.waitFor(/d deny/), /\? asks\s+shell:touch spanned\.txt/);
      term.type("d", false);
      await term.waitFor(/Got the expansion\./);
      assert.equal(existsSync(join(s.ws.dir, "spanned.txt")), false);
      const sent = s.server.requests.at(-1)?.normalized?.messages.at(-1)?.text ?? "";
      assert.match(sent, /Files: commands/);
      assert.match(sent, /Made: \[not run: /);
      assert.match(sent, /now @notes\.txt/);
      assert.match(sent, /<file path="notes\.txt">\nNOTES-CONTENT/);
      assert.doesNotMatch(sent, /SECRET-CONTENT/);
      term.type("/exit");
      const { decisions } = s.latest();
      expectDecision(decisions, "call.approval", "person", "deny");
      const sandbox = decisions.find((d) => d.seat === "exec.sandbox");
      assert.equal(sandbox?.answer, "read-only", "the proven span ran confined");
    } finally {
      term.kill();
      await s.close();
    }
  });
  it("a custom command's agent and model hold for its own turn only; a command cannot lift a read-only agent; a switch keeps the others", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "Review:" }, reply: { text: "Reviewed read-only." } },
        { match: { lastMessage: "after the review" }, reply: { text: "Back to work." } },
        { match: { lastMessage: "Fix:" }, reply: { text: "should not be asked" } },
        { match: { lastMessage: "Cheaply:" }, reply: { text: "Answered by the session's model." } },
      ],
    });
    // The person's own command (their commands folder) may choose agent and model; a repository's may not choose the model.
    mkdirSync(join(s.ws.home, "commands"));
    writeFileSync(
      join(s.ws.home, "commands", "audit.md"),
      "---\nagent: plan\nmodel: scripted/review-model\n---\nReview: $ARGUMENTS\n",
    );
    s.ws.write(".bosun/commands/cheap.md", "---\nmodel: scripted/cheap-model\n---\nCheaply: $ARGUMENTS\n");
    s.ws.write(".bosun/commands/fix.md", "---\nagent: build\n---\nFix: $ARGUMENTS\n");
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/audit the parser");
      await term.waitFor(/Reviewed read-only\./);
      const review = s.server.requests.at(-1);
      assert.equal((review?.json as { model?: string } | undefined)?.model, "review-model");
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("after the review");
      await term.waitFor(/Back to work\./);
      assert.equal((s.server.requests.at(-1)?.json as { model?: string } | undefined)?.model, "test-model");
      term.type("/cheap please");
      await term.waitFor(/Answered by the session's model\./);
      assert.equal((s.server.requests.at(-1)?.json as { model?: string } | undefined)?.model, "test-model");
      term.type("/model scripted/other-model");
      await term.waitFor(/scripted\/other-model · build · approve/);
      term.type("after the review");
      await term.waitFor(/Back to work\.[\s\S]*Back to work\./);
      assert.equal((s.server.requests.at(-1)?.json as { model?: string } | undefined)?.model, "other-model");

      term.type("/agent plan");
      await term.waitFor(/scripted\/other-model · plan · approve/);
      term.type("/mode chat");
      await term.waitFor(/scripted\/other-model · plan · chat/, 10_000);
      term.type("/fix it");
      await term.waitFor(
        /\/fix asks for agent build, which may change files, but this session's agent plan is read-only/,
      );
      assert.equal(s.server.requests.filter((r) => r.normalized?.messages.at(-1)?.text.startsWith("Fix:")).length, 0);
      term.type("/exit");

      const { decisions } = s.latest();
      const forReview = decisions.filter((d) => d.subject?.command === "audit");
      expectDecision(forReview, "agent.select", "config", "plan");
      expectDecision(forReview, "model.select", "config", "scripted/review-model");
      expectDecision(decisions, "model.select", "person", "scripted/other-model");
      // The command was the first message: the session is still named by it.
      const title = expectDecision(decisions, "session.title", "code");
      assert.match(String(title.answer), /^Review: the parser · \d\d:\d\d$/);
      const refused = decisions.filter((d) => d.subject?.command === "fix");
      expectDecision(refused, "agent.select", "code", "plan");
      expectDecision(decisions, "input.command", "person", {
        kind: "custom",
        name: "audit",
        file: join(s.ws.home, "commands", "audit.md"),
      });
      expectDecision(
        decisions.filter((d) => d.subject?.command === "cheap"),
        "model.select",
        "code",
        "scripted/test-model",
      );
    } finally {
      term.kill();
      await s.close();
    }
  });
  it("a repository's bosun.json that loosens the rules is asked about in the session's own dialog, and a warning shows in the transcript", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "touch it" },
            reply: { toolCalls: [{ id: "t1", name: "shell", arguments: { command: "touch trusted.txt" } }] },
          },
          { match: { lastMessage: "tool_result t1" }, reply: { text: "Touched without asking." } },
        ],
      },
      { config: { permission: { shell: { "touch *": "allow" } } } },
    );
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    let again: ReturnType<typeof startTmux> | undefined;
    let third: ReturnType<typeof startTmux> | undefined;
    try {
      const dialog = await term.waitFor(/a yes, always for this exact content/);
      assert.match(dialog, /allow shell:touch \*/);
      assert.match(dialog, /Ask bosun/, "the dialog is part of the drawn session, not text across it");
      term.type("o", false);
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("touch it");
      await term.waitFor(/Touched without asking\./);
      assert.ok(existsSync(join(s.ws.dir, "trusted.txt")));
      // A switch opens the session again: the answer holds, nothing is asked twice.
      term.type("/mode approve");
      await term.waitFor(/session \w{10} · scripted\/test-model · build · approve/);
      assert.doesNotMatch(term.screen().split("/mode approve")[1] ?? "", /would let more run/);
      term.type("/exit");
      const trusts = s.latest().decisions.filter((d) => d.seat === "project.trust");
      assert.equal(trusts.length, 2);
      expectDecision(trusts.slice(-1), "project.trust", "person", "trusted");

      // No: the session keeps to the person's own config and says so in its transcript.
      again = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
      await again.waitFor(/n no — ask as my own config says/);
      again.type("n", false);
      await again.waitFor(/bosun: not applying what .*bosun\.json would loosen \(allow shell:touch \*\): not trusted/);
      // ↑ walks what was typed here in the session before.
      again.keys("Up");
      await again.waitFor(/│ › \/exit/);
      again.keys("Up");
      await again.waitFor(/│ › \/mode approve/);
      again.keys("C-u");
      await again.waitFor(/│ ›\s+Ask bosun/);
      again.type("/exit");
      expectDecision(s.latest().decisions, "project.trust", "person", "untrusted");

      // Ctrl-C with the question open: bosun ends, nothing left waiting on the answer.
      third = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
      await third.waitFor(/This repository's bosun\.json would let more run without asking/);
      third.keys("C-c");
      const until = Date.now() + 10_000;
      while (!third.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      assert.ok(third.exited(), third.screen());
    } finally {
      third?.kill();
      term.kill();
      again?.kill();
      await s.close();
    }
  });
  it("a silent provider: the status line counts the seconds waited, then the transcript says who did not answer", async () => {
    const s = await startScenario(
      { rules: [{ match: { lastMessage: "anyone there" }, reply: { hang: true } }] },
      { global: { model_wait: { timeout_ms: 2500 }, retry: { max_attempts: 1 } } },
    );
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build/);
      term.type("anyone there?");
      await term.waitFor(/waiting for the model · 0 s \(Esc interrupts\)/);
      await term.waitFor(/waiting for the model · [12] s \(Esc interrupts\)/);
      const screen = await term.waitFor(
        /the model request failed: timeout: no response from scripted \(.*\) within 2\.5 s/,
      );
      assert.doesNotMatch(screen, /cannot connect/i);
      await term.waitFor(/build · approve · [^\n]*tokens\s*$/m);
      assert.doesNotMatch(term.screen(), /waiting for the model/);
      term.type("/exit");
    } finally {
      term.kill();
      await s.close();
    }
  });

  it("a session that cannot open (no model can be used) says why and exits 2, with no stack trace", async () => {
    const s = await startScenario({ rules: [] });
    s.setUserConfig({ model: "nowhere/none" });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      const until = Date.now() + 15_000;
      while (term.exitCode() === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      const screen = term.screen();
      assert.equal(term.exitCode(), 2, screen);
      assert.equal(screen.match(/cannot be used: unknown provider "nowhere"/g)?.length, 1, "said once");
      assert.doesNotMatch(screen, /at \w+ \(file:|Node\.js v|internal error/);
    } finally {
      term.kill();
      await s.close();
    }
  });
});
