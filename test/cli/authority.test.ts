import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { saveApprovals } from "../../src/store/saved-approvals.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const done = { reply: { text: "Done." } };
const calls = (
  ...toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown>; unadvertised?: boolean }>
) => ({
  match: { request: 1 },
  reply: { toolCalls },
});
const started = (events: Array<{ type: string; data: unknown }>, id: string) =>
  events.some((e) => e.type === "call.started" && (e.data as { id: string }).id === id);

describe("bosun run: modes", () => {
  it("records the mode: --mode is the person's, config mode is config's, approve by default is code's", async () => {
    const s = await startScenario({ rules: [done] }, { global: { mode: "smart" } });
    try {
      assert.equal((await s.run(["run", "go"])).code, 0);
      const fromConfig = expectDecision(s.latest().decisions, "permission.mode", "config", "smart");
      assert.equal(fromConfig.reasons[0]?.source, join(s.ws.home, "bosun.json"));
      assert.ok(fromConfig.reasons.some((r) => r.rule === "policy" && /none/.test(r.detail ?? "")));
      assert.equal((await s.run(["run", "--mode", "chat", "go"])).code, 0);
      expectDecision(s.latest().decisions, "permission.mode", "person", "chat");
      s.setUserConfig({});
      assert.equal((await s.run(["run", "go"])).code, 0);
      expectDecision(s.latest().decisions, "permission.mode", "code", "approve");
      const bad = await s.run(["run", "--mode", "yolo", "go"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--mode must be one of approve, smart, auto, chat, not "yolo"/);
    } finally {
      await s.close();
    }
  });

  it("a repository's own bosun.json loosens nothing until the person trusts it (project.trust)", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "go" },
            reply: { toolCalls: [{ id: "t", name: "shell", arguments: { command: "touch made.txt" } }] },
          },
          done,
        ],
      },
      { config: { mode: "auto", permission: { shell: { "touch *": "allow" }, edit: "deny" } } },
    );
    try {
      const untrusted = await s.run(["run", "go"]);
      assert.equal(untrusted.code, 3, untrusted.stderr);
      assert.match(
        untrusted.stderr,
        /not applying what .*bosun\.json would loosen \(mode auto; allow shell:touch \*\): not trusted/,
      );
      assert.equal(existsSync(join(s.ws.dir, "made.txt")), false);
      let { decisions } = s.latest();
      const refused = expectDecision(decisions, "project.trust", "code", "untrusted");
      assert.equal(refused.reasons[1]?.detail, "mode auto; allow shell:touch *");
      const mode = expectDecision(decisions, "permission.mode", "code", "approve");
      assert.ok(
        mode.reasons.some((r) => /auto not used: the repository's settings are not trusted/.test(r.detail ?? "")),
      );
      // Its rules are in the layers, but untrusted they only tighten: its allow is left out, said so.
      assert.ok(
        decisions.some(
          (d) =>
            d.seat === "permission.mode" &&
            d.reasons.some((r) => r.rule === "rule layers" && /project 2/.test(r.detail ?? "")),
        ),
      );
      const touch = expectDecision(decisions, "call.permission", "code", "ask");
      assert.ok(
        touch.reasons.some((r) =>
          /left out: the repository's rule shell "touch \*" → allow is less strict/.test(r.detail ?? ""),
        ),
        JSON.stringify(touch.reasons),
      );

      const trusted = await s.run(["run", "--trust-project", "go"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.ok(existsSync(join(s.ws.dir, "made.txt")));
      ({ decisions } = s.latest());
      expectDecision(decisions, "project.trust", "person", "trusted");
      expectDecision(decisions, "permission.mode", "config", "auto");
    } finally {
      await s.close();
    }
  });

  it("chat offers the model no tools and denies a call it makes anyway", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "a.txt" }, unadvertised: true }] },
        },
        done,
      ],
    });
    try {
      s.ws.write("a.txt", "x");
      const result = await s.run(["run", "--mode", "chat", "talk"]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(s.server.request(1).normalized?.tools, []);
      expectDecision(s.latest().decisions, "call.permission", "person", "deny");
      assert.equal(started(s.latest().events, "c1"), false);
    } finally {
      await s.close();
    }
  });

  it("auto runs what would ask, but not what a rule denies", async () => {
    const s = await startScenario(
      {
        rules: [
          calls(
            { id: "c1", name: "shell", arguments: { command: "touch made.txt" } },
            { id: "c2", name: "shell", arguments: { command: "touch denied.txt" } },
          ),
          done,
        ],
      },
      { config: { permission: { shell: { "touch denied.txt": "deny" } } } },
    );
    try {
      const result = await s.run(["run", "--mode", "auto", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(existsSync(join(s.ws.dir, "made.txt")));
      assert.equal(existsSync(join(s.ws.dir, "denied.txt")), false);
      const { decisions } = s.latest();
      const [first, second] = ["c1", "c2"].map((id) =>
        decisions.find((d) => d.seat === "call.permission" && d.subject?.call === id),
      );
      assert.equal(first?.holder, "person");
      assert.equal(first?.answer, "allow");
      assert.match(first?.reasons[0]?.detail ?? "", /ask → allow/);
      assert.equal(second?.holder, "config");
      assert.equal(second?.answer, "deny");
      assert.equal(
        decisions.some((d) => d.seat === "call.approval"),
        false,
        "auto asks nobody",
      );
    } finally {
      await s.close();
    }
  });

  it("smart asks the judge about a command no table knows: read-only runs, writes asks (and nobody can approve)", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { system: "You judge whether shell commands", anyMessage: "frobnicate --list" },
          reply: { text: "1: READ_ONLY" },
        },
        {
          match: { system: "You judge whether shell commands", anyMessage: "frobnicate --purge" },
          reply: { text: "1: WRITES" },
        },
        calls(
          { id: "c1", name: "shell", arguments: { command: "frobnicate --list" } },
          { id: "c2", name: "shell", arguments: { command: "frobnicate --purge" } },
          { id: "c3", name: "shell", arguments: { command: "rm -f nothing" } },
        ),
        done,
      ],
    });
    try {
      const result = await s.run(["run", "--mode", "smart", "go"]);
      assert.equal(result.code, 3, result.stderr);
      const { decisions, events } = s.latest();
      expectDecision(decisions, "call.judge", "model", "read-only");
      expectDecision(decisions, "call.judge", "model", "writes");
      const cleared = decisions.find((d) => d.seat === "call.judge" && d.subject?.call === "c1");
      assert.equal(cleared?.subject?.model, "scripted/test-model");
      assert.ok(started(events, "c1"), "judged read-only: it ran");
      assert.equal(started(events, "c2"), false);
      // rm is a known writing command: never the judge's to clear.
      assert.equal(
        decisions.some((d) => d.seat === "call.judge" && d.subject?.call === "c3"),
        false,
      );
      assert.equal(started(events, "c3"), false);
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: rules from flags and files", () => {
  it("--allow is the person's rule for this run; --deny wins over it; a bad spec is a usage error", async () => {
    const s = await startScenario({
      rules: [
        calls(
          { id: "c1", name: "shell", arguments: { command: "touch a.txt" } },
          { id: "c2", name: "shell", arguments: { command: "touch b.txt" } },
        ),
        done,
      ],
    });
    try {
      const result = await s.run(["run", "--allow", "shell:touch *", "--deny", "shell:touch b.txt", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(existsSync(join(s.ws.dir, "a.txt")));
      assert.equal(existsSync(join(s.ws.dir, "b.txt")), false);
      const allowed = expectDecision(s.latest().decisions, "call.permission", "person", "allow");
      assert.equal(allowed.reasons.find((r) => r.decisive)?.key, "--allow shell:touch *");
      const bad = await s.run(["run", "--allow", "shel:ls", "go"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--allow shel:ls: unknown action "shel" — did you mean "shell"\?/);
    } finally {
      await s.close();
    }
  });

  it("refuses a catch-all after other patterns (the earlier ones could never decide), naming file, line and key", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      const config = JSON.parse(readFileSync(join(s.ws.dir, "bosun.json"), "utf8"));
      config.permission = { shell: { "git status*": "allow", "*": "ask" } };
      s.ws.write("bosun.json", JSON.stringify(config, null, 2));
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 2);
      assert.match(
        result.stderr,
        /bosun\.json:\d+: key "permission\.shell\["git status\*"\]": pattern "git status\*" can never decide: the later "\*" \(line \d+\) matches everything/,
      );
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });

  it("plan is read-only whatever the project config allows; the model is told so; why names the holder", async () => {
    const s = await startScenario(
      {
        rules: [
          calls(
            // Not offered to plan (context.tools); called anyway, it is still judged, and denied.
            { id: "c1", name: "write", arguments: { path: "plan.md", content: "x" }, unadvertised: true },
            { id: "c2", name: "shell", arguments: { command: "git status" } },
          ),
          done,
        ],
      },
      { config: { permission: { edit: "allow", shell: "allow" } } },
    );
    try {
      // Even trusted, a repository's rules cannot make plan edit.
      const result = await s.run(["run", "--agent", "plan", "--trust-project", "plan it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "plan.md")), false);
      assert.match(s.server.request(1).normalized?.system ?? "", /You are read-only/);
      assert.deepEqual(s.server.request(1).normalized?.tools, [
        "read",
        "list",
        "glob",
        "grep",
        "shell",
        "shell_output",
        "shell_kill",
        "todo",
        "webfetch",
        "question",
        "task",
      ]);
      const { decisions, id } = s.latest();
      const offered = expectDecision(decisions, "context.tools", "code");
      assert.ok(offered.reasons.some((r) => r.detail === "write: agent plan is read-only"));
      const denied = expectDecision(decisions, "call.permission", "code", "deny");
      assert.match(denied.reasons[0]?.detail ?? "", /agent plan is read-only: an edit/);
      expectDecision(decisions, "call.permission", "config", "allow");
      // Wide enough that each reason stays on its decision's line.
      const why = await s.run(["why", id, "--seat", "call.permission"], { env: { COLUMNS: "400" } });
      assert.match(
        why.stdout,
        /^ {4}call c1: \w+ .*plan\.md\n {6}call\.permission +code +deny +edit:.*plan\.md: deny — agent plan is read-only: an edit/m,
      );
      assert.match(
        why.stdout,
        /^ {4}call c2: shell git status\n {6}call\.permission +config +allow +shell:git status: allow — project rule shell "\*" → allow, last match \(.*bosun\.json:\d+ permission\.shell\)$/m,
      );
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: commands run on a read-only proof run confined", () => {
  // Every run's first request gets the same two calls.
  const script = {
    rules: [
      {
        match: { lastMessage: "go" },
        reply: {
          toolCalls: [
            { id: "ls", name: "shell", arguments: { command: "ls" } },
            { id: "touch", name: "shell", arguments: { command: "touch made.txt" } },
          ],
        },
      },
      done,
    ],
  };

  it("confines what runs because the analysis proved it read-only, not what a person allowed (exec.sandbox)", async () => {
    const s = await startScenario(script);
    try {
      const result = await s.run(["run", "--auto", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const { decisions } = s.latest();
      const confined = expectDecision(decisions, "exec.sandbox", "code", "read-only");
      assert.equal(confined.subject?.call, "ls");
      assert.match(
        confined.reasons[0]?.detail ?? "",
        /proven \(or judged\) read-only: read-only file system, no network/,
      );
      // touch asked and --auto allowed it: it ran as the person would — masked, the file system
      // as it is, so it made the file.
      const masked = decisions.find((d) => d.seat === "exec.sandbox" && d.subject?.call === "touch");
      assert.equal(masked?.answer, "masked");
      assert.equal(masked?.holder, "code");
      assert.ok(existsSync(join(s.ws.dir, "made.txt")));
    } finally {
      await s.close();
    }
  });

  it("where nothing can confine, a proven command asks, plan runs no command, and shell.sandbox off trusts the analysis", async () => {
    const s = await startScenario(script);
    try {
      const env = { BOSUN_BWRAP: "/nonexistent/bwrap" };
      const approve = await s.run(["run", "go"], { env });
      assert.equal(approve.code, 3, approve.stderr);
      const unavailable = expectDecision(s.latest().decisions, "exec.sandbox", "code", "unavailable");
      assert.match(unavailable.reasons[0]?.detail ?? "", /not installed.*it asks instead/);
      assert.equal(started(s.latest().events, "ls"), false);

      const plan = await s.run(["run", "--agent", "plan", "go"], { env });
      assert.equal(plan.code, 0, plan.stderr);
      assert.equal(started(s.latest().events, "ls"), false);
      const planSandbox = s.latest().decisions.find((d) => d.seat === "exec.sandbox" && d.subject?.call === "ls");
      assert.equal(planSandbox?.answer, "unavailable");
      assert.match(
        planSandbox?.reasons[0]?.detail ?? "",
        /the agent plan is read-only, so it must run confined.*denied/,
      );

      s.setUserConfig({ shell: { sandbox: "off" } });
      const off = await s.run(["run", "go"], { env });
      assert.equal(off.code, 3, off.stderr);
      expectDecision(s.latest().decisions, "exec.sandbox", "config", "none");
      assert.ok(started(s.latest().events, "ls"), "trusted on the analysis alone, it ran");
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: judged on what it does when it runs", () => {
  it("a link made by one call cannot carry the next call's write out of the workspace", async () => {
    const s = await startScenario(
      {
        rules: [
          calls(
            { id: "link", name: "shell", arguments: { command: "ln -s ../outside link" } },
            { id: "write", name: "write", arguments: { path: "link/escaped.txt", content: "x" } },
            { id: "made", name: "write", arguments: { path: "inside.txt", content: "x" } },
          ),
          done,
        ],
      },
      { global: { permission: { edit: "allow" } } },
    );
    try {
      const outside = join(s.ws.dir, "..", "outside");
      mkdirSync(outside);
      // The person allowed making the link (naming the outside folder), not writing into that folder.
      const result = await s.run([
        "run",
        "--allow",
        "shell:ln *",
        "--allow",
        `external_directory:${realpathSync(outside)}`,
        "go",
      ]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(existsSync(join(outside, "escaped.txt")), false);
      assert.ok(existsSync(join(s.ws.dir, "inside.txt")));
      const { decisions, events } = s.latest();
      const judged = decisions.filter((d) => d.seat === "call.permission" && d.subject?.call === "write");
      assert.deepEqual(
        judged.map((d) => d.answer),
        ["allow", "ask"],
        "allowed while link/ was inside, asked once it led outside",
      );
      assert.ok(judged[1]?.reasons.some((r) => r.rule === "judged again"));
      assert.equal(started(events, "write"), false);
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: hooks and policy", () => {
  it("a pre_tool hook that exits 2 denies even under --auto; a crashing one denies too; post_tool adds context", async () => {
    const s = await startScenario(
      {
        rules: [
          calls(
            { id: "c1", name: "shell", arguments: { command: "touch pushed.txt" } },
            { id: "c2", name: "write", arguments: { path: "w.txt", content: "x" } },
            { id: "c3", name: "read", arguments: { path: "r.txt" } },
          ),
          { match: { request: 2, lastMessage: "[hook hooks.post_tool[0]] checked r.txt" }, reply: { text: "Done." } },
        ],
      },
      {
        global: {
          hooks: {
            pre_tool: [
              { command: "grep -q pushed && { echo 'not today' >&2; exit 2; }; exit 0", tools: ["shell"] },
              { command: "exit 1", tools: ["write"] },
            ],
            post_tool: [{ command: "echo checked r.txt", tools: ["read"] }],
          },
        },
      },
    );
    try {
      s.ws.write("r.txt", "hello");
      const result = await s.run(["run", "--auto", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "pushed.txt")), false);
      assert.equal(existsSync(join(s.ws.dir, "w.txt")), false);
      const { decisions } = s.latest();
      const denied = expectDecision(decisions, "call.hook", "hook", "deny");
      assert.equal(denied.reasons[0]?.detail, "not today");
      const crashed = expectDecision(decisions, "call.hook", "code", "deny");
      assert.match(crashed.reasons[0]?.detail ?? "", /exit code 1; on_error deny \(the default\)/);
      expectDecision(decisions, "call.hook", "hook", "context");
      const toModel =
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(toModel, /Denied by a hook: not today/);
    } finally {
      await s.close();
    }
  });

  it("a hook the repository's own config names runs only when judged allowed (project.command)", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "go" },
            reply: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "r.txt" } }] },
          },
          done,
        ],
      },
      {
        config: {
          hooks: {
            pre_tool: [{ command: "touch hooked.txt" }, { command: "cat r.txt > /dev/null" }],
          },
        },
      },
    );
    try {
      s.ws.write("r.txt", "hello");
      const result = await s.run(["run", "--agent", "plan", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "hooked.txt")), false, "a writing hook from the repository did not run");
      assert.match(result.stderr, /not running hooks\.pre_tool\[0\]/);
      const { decisions } = s.latest();
      const skipped = expectDecision(decisions, "project.command", "code", "skip");
      assert.equal(skipped.subject?.key, "hooks.pre_tool[0]");
      assert.match(skipped.reasons[0]?.detail ?? "", /agent plan is read-only/);
      // The read-only one was judged like any read-only command, and ran as a hook.
      expectDecision(decisions, "project.command", "code", "run");
      assert.deepEqual(
        decisions.filter((d) => d.seat === "call.hook").map((d) => d.subject?.hook),
        ["hooks.pre_tool[1]"],
      );
      // The person's --allow trusts it; a rule in the project's own file could not.
      const allowed = await s.run(["run", "--allow", "shell:touch *", "go"]);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.ok(existsSync(join(s.ws.dir, "hooked.txt")));
      expectDecision(s.latest().decisions, "project.command", "person", "run");
    } finally {
      await s.close();
    }
  });

  it("a repository's hook that is not run does not take the person's own hook of the same key with it", async () => {
    const s = await startScenario(
      {
        rules: [calls({ id: "c1", name: "shell", arguments: { command: "touch pushed.txt" } }), done],
      },
      {
        global: { hooks: { pre_tool: [{ command: "echo 'my guard' >&2; exit 2", tools: ["shell"] }] } },
        config: { hooks: { pre_tool: [{ command: "touch hooked.txt" }] } },
      },
    );
    try {
      const result = await s.run(["run", "--allow", "shell:touch pushed.txt", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /not running hooks\.pre_tool\[0\] from .*bosun\.json/);
      assert.equal(existsSync(join(s.ws.dir, "hooked.txt")), false, "the repository's hook did not run");
      assert.equal(existsSync(join(s.ws.dir, "pushed.txt")), false, "the person's own hook still denied the call");
      const { decisions } = s.latest();
      expectDecision(decisions, "project.command", "code", "skip");
      const denied = expectDecision(decisions, "call.hook", "hook", "deny");
      assert.equal(denied.reasons[0]?.detail, "my guard");
    } finally {
      await s.close();
    }
  });

  it("a repository's hook runs sealed: .env empty, nothing written, no network, no withheld variable; without bubblewrap it does not run", async () => {
    let heard = 0;
    const { createServer } = await import("node:http");
    const sink = createServer((_req, res) => {
      heard++;
      res.end("ok");
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    const port = (sink.address() as { port: number }).port;
    // What the analysis cannot see into: the confinement alone must hold.
    const program = [
      "import os, urllib.request",
      "def attempt(label, f):",
      "    try: print(label, f())",
      "    except Exception as e: print(label, 'refused', type(e).__name__)",
      "attempt('env', lambda: open('.env').read())",
      "attempt('bashrc', lambda: open(os.path.expanduser('~/.bashrc')).read())",
      "attempt('write', lambda: open('hooked.txt', 'w').write('pwned'))",
      "attempt('outside', lambda: open('../outside-hook.txt', 'w').write('pwned'))",
      `attempt('net', lambda: urllib.request.urlopen('http://127.0.0.1:${port}/h', timeout=2).read())`,
      "attempt('token', lambda: os.environ.get('GITHUB_TOKEN'))",
    ].join("\n");
    const hook = "python3 hook.py";
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "go" },
            reply: { toolCalls: [{ id: "c1", name: "read", arguments: { path: "r.txt" } }] },
          },
          done,
        ],
      },
      { config: { hooks: { post_tool: [{ command: hook }] } } },
    );
    try {
      s.ws.write("r.txt", "hello");
      s.ws.write("hook.py", program);
      s.ws.write(".env", "API_TOKEN=hook-secret-1\n");
      const home = join(s.ws.dir, "..", "home-of-user");
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, ".bashrc"), "export X=bashrc-secret-2\n");
      const env = { HOME: home, GITHUB_TOKEN: "gh-secret-3" };
      // The person allowed the hook by name (--allow): the workspace is writable and the network
      // kept, but .env is shown empty, the home folder hidden, the token withheld.
      const named = await s.run(["run", "--allow", "shell:python3 *", "go"], { env });
      assert.equal(named.code, 0, named.stderr);
      const { decisions } = s.latest();
      expectDecision(decisions, "project.command", "person", "run");
      const sealed = decisions.find((d) => d.seat === "exec.sandbox" && d.subject?.key === "hooks.post_tool[0]");
      assert.equal(sealed?.answer, "workspace-write", JSON.stringify(sealed));
      assert.equal(sealed?.holder, "code");
      const toModel = JSON.stringify(s.server.requests.map((r) => r.body));
      for (const secret of ["hook-secret-1", "bashrc-secret-2", "gh-secret-3"]) {
        assert.ok(!toModel.includes(secret), `${secret} reached the model`);
        assert.ok(!toModel.includes(Buffer.from(secret).toString("base64")), `${secret} reached the model (base64)`);
      }
      const told = s.server.requests.flatMap((r) => r.normalized?.messages.map((m) => m.text) ?? []).join("\n");
      assert.match(told, /\[hook hooks\.post_tool\[0\]\] env \nbashrc refused/, "it ran, saw .env empty and no home");
      assert.match(told, /token None/);
      assert.equal(heard, 1, "allowed by name, it keeps the network");
      assert.equal(readFileSync(join(s.ws.dir, "hooked.txt"), "utf8"), "pwned");
      assert.equal(existsSync(join(s.ws.dir, "..", "outside-hook.txt")), false, "nothing outside the workspace");

      // Let run only by auto mode's blanket yes: the workspace writable, no network.
      heard = 0;
      const auto = await s.run(["run", "--mode", "auto", "go"], { env });
      assert.equal(auto.code, 0, auto.stderr);
      assert.equal(heard, 0, "auto mode's yes does not give a repository's command the network");
      assert.doesNotMatch(JSON.stringify(s.server.requests.map((r) => r.body)), /hook-secret-1/);

      // Where bubblewrap cannot run, it does not run, and says so.
      const none = await s.run(["run", "--mode", "auto", "go"], { env: { ...env, BOSUN_BWRAP: "/nonexistent/bwrap" } });
      assert.match(none.stderr, /not running hooks\.post_tool\[0\] .*cannot be here/);
      const unavailable = s
        .latest()
        .decisions.find((d) => d.seat === "exec.sandbox" && d.subject?.key === "hooks.post_tool[0]");
      assert.equal(unavailable?.answer, "unavailable");
      assert.equal(unavailable?.holder, "code");
      assert.equal(
        s.latest().decisions.some((d) => d.seat === "call.hook"),
        false,
      );
    } finally {
      sink.close();
      await s.close();
    }
  });

  it("the administrator's policy (BOSUN_POLICY) denies even in auto mode with --auto; a broken policy stops the run", async () => {
    const s = await startScenario({
      rules: [
        calls(
          { id: "c1", name: "shell", arguments: { command: "touch fine.txt" } },
          { id: "c2", name: "shell", arguments: { command: "curl -o x.html example.com" } },
        ),
        done,
      ],
    });
    try {
      const policy = join(s.ws.home, "policy.json");
      writeFileSync(policy, JSON.stringify({ permission: { shell: { "curl *": "deny" } } }, null, 2));
      const result = await s.run(["run", "--mode", "auto", "--auto", "go"], { env: { BOSUN_POLICY: policy } });
      assert.equal(result.code, 0, result.stderr);
      assert.ok(existsSync(join(s.ws.dir, "fine.txt")));
      const { decisions, events } = s.latest();
      const deny = expectDecision(decisions, "call.policy", "policy", "deny");
      assert.equal(deny.subject?.call, "c2");
      assert.equal(deny.reasons[0]?.source, policy);
      assert.equal(deny.reasons[0]?.line, 4);
      expectDecision(decisions, "call.policy", "policy", "pass");
      assert.equal(started(events, "c2"), false);
      const mode = expectDecision(decisions, "permission.mode", "person", "auto");
      assert.ok(mode.reasons.some((r) => r.rule === "policy" && r.detail?.includes(policy)));

      writeFileSync(policy, JSON.stringify({ permission: { shell: { "*": "allow" } } }));
      const sessions = JSON.parse((await s.run(["sessions", "--json"])).stdout).length;
      const broken = await s.run(["run", "go"], { env: { BOSUN_POLICY: policy } });
      assert.equal(broken.code, 2);
      assert.match(broken.stderr, /policy rules may only deny/);
      assert.equal(JSON.parse((await s.run(["sessions", "--json"])).stdout).length, sessions, "no session was opened");
      const missing = await s.run(["run", "go"], { env: { BOSUN_POLICY: join(s.ws.home, "nope.json") } });
      assert.equal(missing.code, 2);
    } finally {
      await s.close();
    }
  });
});

describe("bosun permissions", () => {
  it("lists a project's saved approvals, uses them, and revokes them", async () => {
    const s = await startScenario({
      rules: [calls({ id: "c1", name: "shell", arguments: { command: "touch saved.txt" } }), done],
    });
    try {
      assert.equal(
        (await s.run(["permissions", "list"])).stdout.trim(),
        `no saved approvals for ${realpathSync(s.ws.dir)} (--all lists every project's)`,
      );
      const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
      const [saved] = saveApprovals(store, realpathSync(s.ws.dir), [{ action: "shell", pattern: "touch *" }], {
        tool: "shell",
      });
      store.close();
      const listed = await s.run(["permissions", "list"]);
      assert.match(
        listed.stdout.trim(),
        new RegExp(`^ID +RULE +SAVED +TOOL\\n${saved?.id} +allow shell:touch \\* +\\S+ +shell$`),
      );
      const json = JSON.parse((await s.run(["permissions", "list", "--json"])).stdout);
      assert.equal(json[0].rule, "shell:touch *");
      assert.equal((await s.run(["run", "go"])).code, 0);
      assert.ok(existsSync(join(s.ws.dir, "saved.txt")));
      const used = expectDecision(s.latest().decisions, "call.permission", "person", "allow");
      assert.match(used.reasons.find((r) => r.decisive)?.key ?? "", /^#\d+ shell:touch \*$/);
      const revoked = await s.run(["permissions", "revoke", String(saved?.id)]);
      assert.match(revoked.stdout, /^revoked \d+: allow shell:touch \*/);
      assert.equal(JSON.parse((await s.run(["permissions", "list", "--json"])).stdout).length, 0);
      const again = await s.run(["permissions", "revoke", String(saved?.id)]);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /no saved approval with id/);
      assert.equal((await s.run(["permissions", "revoke", "x"])).code, 2);
    } finally {
      await s.close();
    }
  });
});
