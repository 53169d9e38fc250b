import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expectDecision } from "../../../test/support/ledger.js";
import { decideAgent } from "../../agents/select.js";
import { type LoadedConfig, loadConfig } from "../../config/load.js";
import type { Holder, RecordedDecision } from "../../contracts/decisions.js";
import type { ModeName } from "../../contracts/modes.js";
import type { CallDescription } from "../../contracts/requests.js";
import { builtinTools } from "../../tools/registry.js";
import { buildAuthority, type SessionRuleFlags } from "../rules/layers.js";
import type { Rule } from "../rules/rules.js";
import { type AuthorityContext, authorize, type PermissionAnswer } from "./authorize.js";

const asRecorded = (answer: PermissionAnswer): RecordedDecision[] => [
  { seat: "call.permission", holder: answer.holder, answer: answer.answer, reasons: answer.reasons, seq: 1, at: "" },
];

describe("authorize (call.permission)", () => {
  let root: string;
  let ws: string;
  let outside: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-authorize-")));
    ws = join(root, "ws");
    outside = join(root, "outside");
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(ws, ".env"), "SECRET=1\n");
    writeFileSync(join(outside, "notes.txt"), "x\n");
    symlinkSync(outside, join(ws, "link"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** A config from a project bosun.json, so rules carry a file and a line. */
  function config(content: unknown = {}): LoadedConfig {
    writeFileSync(join(ws, "bosun.json"), JSON.stringify(content, null, 2));
    return loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
  }

  function authority(
    options: {
      content?: unknown;
      agent?: string;
      mode?: ModeName;
      modeHolder?: Holder;
      flags?: SessionRuleFlags;
      saved?: Rule[];
      /** Whether the person trusts the project's bosun.json; these tests use it as "config", so yes unless said. */
      trusted?: boolean;
    } = {},
  ): AuthorityContext {
    const loaded = config(options.content ?? {});
    return buildAuthority({
      config: loaded,
      agent: decideAgent(options.agent, loaded).agent,
      mode: { name: options.mode ?? "approve", holder: options.modeHolder ?? "code" },
      ...(options.flags ? { flags: options.flags } : {}),
      ...(options.saved ? { saved: options.saved } : {}),
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
      projectTrusted: options.trusted ?? true,
    });
  }

  const tool = (name: string) => {
    const found = builtinTools().find((t) => t.name === name);
    if (!found) throw new Error(name);
    return found;
  };
  const describeCall = (name: string, input: Record<string, unknown>): Promise<CallDescription> =>
    tool(name).requests(input, { cwd: ws, workspace: ws });
  const judge = async (ctx: AuthorityContext, name: string, input: Record<string, unknown>) =>
    authorize(await describeCall(name, input), ctx);

  it("built-in defaults (code): reads allow, edits ask, .env asks, outside the workspace asks", async () => {
    const ctx = authority();
    expectDecision(asRecorded(await judge(ctx, "read", { path: "a.txt" })), "call.permission", "code", "allow");
    expectDecision(
      asRecorded(await judge(ctx, "edit", { path: "a.txt", old_string: "a", new_string: "b" })),
      "call.permission",
      "code",
      "ask",
    );
    assert.equal((await judge(ctx, "read", { path: ".env" })).answer, "ask");
    assert.equal((await judge(ctx, "read", { path: ".env.example" })).answer, "allow");
    const out = await judge(ctx, "read", { path: "../outside/notes.txt" });
    assert.equal(out.answer, "ask");
    assert.deepEqual(
      out.outcomes.map((o) => [o.request.action, o.effect]),
      [
        ["read", "allow"],
        ["external_directory", "ask"],
      ],
    );
  });

  it("never reads a process's environment (bosun's own holds the keys it withholds from tools)", async () => {
    const ctx = authority({ mode: "auto" });
    const direct = await judge(ctx, "read", { path: "/proc/self/environ" });
    assert.equal(direct.answer, "deny");
    assert.match(direct.reasons[0]?.detail ?? "", /default rule read "\/proc\/\*\*\/environ" → deny/);
    assert.equal((await judge(ctx, "shell", { command: "cat /proc/self/environ" })).answer, "deny");
    assert.equal((await judge(ctx, "read", { path: "/proc/self/status" })).answer, "allow");
  });

  it("asks before writing files that make programs run later, unless a rule names them", async () => {
    const ctx = authority({ content: { permission: { edit: "allow" } } });
    for (const path of [".git/config", ".git/hooks/pre-commit", "sub/.envrc"]) {
      const answer = await judge(ctx, "write", { path, content: "x" });
      assert.equal(answer.answer, "ask", path);
      assert.match(answer.reasons[0]?.detail ?? "", /makes programs run later/);
    }
    assert.equal((await judge(ctx, "write", { path: "src/a.ts", content: "x" })).answer, "allow");
    const named = authority({ content: { permission: { edit: { "*": "allow", ".git/hooks/**": "allow" } } } });
    assert.equal((await judge(named, "write", { path: ".git/hooks/pre-commit", content: "x" })).answer, "allow");
    assert.equal((await judge(named, "write", { path: ".git/config", content: "x" })).answer, "ask");
  });

  it("follows a symlink out of the workspace: the read of link/notes.txt is a read outside", async () => {
    const answer = await judge(authority(), "read", { path: "link/notes.txt" });
    assert.equal(answer.answer, "ask");
    assert.deepEqual(
      answer.outcomes.map((o) => `${o.request.action}:${o.request.resource}`),
      [`read:${outside}/notes.txt`, `external_directory:${outside}/notes.txt`],
    );
  });

  it("in approve mode runs shell commands proven read-only, asks for the rest", async () => {
    const ctx = authority();
    const status = await judge(ctx, "shell", { command: "git status && ls -la" });
    expectDecision(asRecorded(status), "call.permission", "code", "allow");
    assert.match(status.reasons[0]?.detail ?? "", /mode rule shell "\*" → allow/);
    const compound = await judge(ctx, "shell", { command: "git status && rm -rf build" });
    assert.equal(compound.answer, "ask");
    assert.deepEqual(
      compound.outcomes.map((o) => [o.request.resource, o.effect]),
      [
        ["git status", "allow"],
        ["rm -rf build", "ask"],
      ],
    );
  });

  it("a read-only command reading .env still asks: the file it names is a read request", async () => {
    const answer = await judge(authority(), "shell", { command: "cat .env" });
    assert.equal(answer.answer, "ask");
    assert.ok(answer.outcomes.some((o) => o.request.action === "read" && o.request.resource === join(ws, ".env")));
  });

  it("a project rule decides (config), naming its file, line and key", async () => {
    const ctx = authority({ content: { permission: { shell: { "*": "ask", "npm test *": "allow" }, edit: "deny" } } });
    const npm = await judge(ctx, "shell", { command: "npm test -- --watch" });
    const recorded = expectDecision(asRecorded(npm), "call.permission", "config", "allow");
    const reason = recorded.reasons.find((r) => r.decisive);
    assert.equal(reason?.source, join(ws, "bosun.json"));
    assert.equal(reason?.key, 'permission.shell["npm test *"]');
    assert.equal(reason?.line, 5);
    // "*": "ask" in config overrides the mode's read-only allow: every command asks now.
    assert.equal((await judge(ctx, "shell", { command: "ls" })).answer, "ask");
    expectDecision(
      asRecorded(await judge(ctx, "write", { path: "x", content: "" })),
      "call.permission",
      "config",
      "deny",
    );
  });

  it("the person's --allow for this run is a session rule (person); --deny beats --allow of the same command", async () => {
    const ctx = authority({ flags: { allow: ["shell:make *", "shell:rm *"], deny: ["shell:rm *"] } });
    expectDecision(
      asRecorded(await judge(ctx, "shell", { command: "make build" })),
      "call.permission",
      "person",
      "allow",
    );
    expectDecision(asRecorded(await judge(ctx, "shell", { command: "rm -f x" })), "call.permission", "person", "deny");
  });

  it("a saved approval (person) lifts a default ask, never a written ask or deny", async () => {
    const saved: Rule[] = [
      { action: "shell", pattern: "make *", effect: "allow", source: { layer: "saved", key: "#1 shell:make *" } },
      {
        action: "shell",
        pattern: "git push *",
        effect: "allow",
        source: { layer: "saved", key: "#2 shell:git push *" },
      },
      { action: "shell", pattern: "curl *", effect: "allow", source: { layer: "saved", key: "#3 shell:curl *" } },
    ];
    const ctx = authority({
      content: { permission: { shell: { "git push *": "ask", "curl *": "deny" } } },
      saved,
    });
    expectDecision(asRecorded(await judge(ctx, "shell", { command: "make" })), "call.permission", "person", "allow");
    const push = await judge(ctx, "shell", { command: "git push origin main" });
    assert.equal(push.answer, "ask");
    assert.ok(push.reasons.some((r) => /says ask, and a rule someone wrote is asked every time/.test(r.detail ?? "")));
    const curl = await judge(ctx, "shell", { command: "curl example.com" });
    assert.equal(curl.answer, "deny");
    assert.ok(curl.reasons.some((r) => /never lift a configured deny/.test(r.detail ?? "")));
  });

  it("the plan agent is read-only on every route, whatever the config allows (code)", async () => {
    const ctx = authority({ agent: "plan", content: { permission: { edit: "allow", shell: "allow" } } });
    expectDecision(
      asRecorded(await judge(ctx, "write", { path: "x", content: "" })),
      "call.permission",
      "code",
      "deny",
    );
    const rm = await judge(ctx, "shell", { command: "rm -rf src" });
    assert.equal(rm.answer, "deny");
    assert.match(rm.reasons[0]?.detail ?? "", /agent plan is read-only: a command not proven read-only/);
    const redirect = await judge(ctx, "shell", { command: "echo hi > notes.md" });
    assert.equal(redirect.answer, "deny");
    // Reading is still allowed (config said shell: allow; the command is proven read-only).
    expectDecision(
      asRecorded(await judge(ctx, "shell", { command: "git log --oneline" })),
      "call.permission",
      "config",
      "allow",
    );
    const mcp = authorize({ requests: [{ action: "mcp", resource: "srv/tool" }] }, ctx);
    assert.equal(mcp.answer, "deny");
    // A tool its server annotates read-only runs, as in approve mode for any agent.
    const annotated = authorize({ requests: [{ action: "mcp", resource: "srv/tool", readOnly: true }] }, ctx);
    assert.equal(annotated.answer, "allow");
  });

  it("an agent configured read_only: true is held by config", async () => {
    const ctx = authority({ agent: "review", content: { agent: { review: { read_only: true } } } });
    expectDecision(
      asRecorded(await judge(ctx, "edit", { path: "a", old_string: "a", new_string: "b" })),
      "call.permission",
      "config",
      "deny",
    );
  });

  it("auto turns every ask into allow, holder the mode's; a deny stays", async () => {
    const ctx = authority({
      mode: "auto",
      modeHolder: "person",
      content: { permission: { shell: { "git push *": "deny" } } },
    });
    expectDecision(
      asRecorded(await judge(ctx, "shell", { command: "rm -rf build" })),
      "call.permission",
      "person",
      "allow",
    );
    assert.equal((await judge(ctx, "read", { path: "/etc/hostname" })).answer, "allow");
    expectDecision(asRecorded(await judge(ctx, "shell", { command: "git push" })), "call.permission", "config", "deny");
    const plan = authority({ mode: "auto", agent: "plan" });
    assert.equal((await judge(plan, "shell", { command: "rm x" })).answer, "deny");
  });

  it("chat denies every call", async () => {
    const ctx = authority({ mode: "chat", modeHolder: "config" });
    expectDecision(asRecorded(await judge(ctx, "read", { path: "a" })), "call.permission", "config", "deny");
  });

  it("a call that cannot be analysed asks in every mode — never allowed; a read-only agent denies it", async () => {
    for (const mode of ["approve", "smart", "auto"] as const) {
      const answer = await judge(authority({ mode }), "shell", { command: "echo 'unclosed" });
      expectDecision(asRecorded(answer), "call.permission", "code", "ask");
      assert.match(answer.reasons[0]?.detail ?? "", /never allowed/);
    }
    assert.equal((await judge(authority({ agent: "plan" }), "shell", { command: "if then" })).answer, "deny");
    assert.equal((await judge(authority({ mode: "chat" }), "shell", { command: "if then" })).answer, "deny");
  });

  it("a file written to a path not known before the command runs asks when a narrower rule might cover it", async () => {
    // It may be outside the workspace too: only someone who allowed that as well allows it.
    const inside = authority({ content: { permission: { edit: "allow", shell: "allow" } } });
    assert.equal((await judge(inside, "shell", { command: 'echo x > "$OUT"' })).answer, "ask");
    // ...and the web: `$OUT` may be /dev/tcp/host/port (a web:* request, issue 11).
    const open = authority({
      content: { permission: { edit: "allow", shell: "allow", external_directory: "allow", web: "allow" } },
    });
    assert.equal((await judge(open, "shell", { command: 'echo x > "$OUT"' })).answer, "allow");
    const guarded = authority({
      content: {
        permission: {
          edit: { "*": "allow", "**/.git/**": "deny" },
          shell: "allow",
          external_directory: "allow",
          web: "allow",
        },
      },
    });
    const answer = await judge(guarded, "shell", { command: 'echo x > "$OUT"' });
    assert.equal(answer.answer, "ask");
    assert.match(answer.reasons.find((r) => r.decisive)?.detail ?? "", /not known before the command runs/);
  });

  it("smart mode lists the asking commands no table knows and no written rule covers", async () => {
    const smart = authority({ mode: "smart", content: { permission: { shell: { "*": "ask", "deploy *": "ask" } } } });
    assert.deepEqual(
      (await judge(authority({ mode: "smart" }), "shell", { command: "frobnicate --list | wc -l" })).judgeable.map(
        (r) => r.resource,
      ),
      ["frobnicate --list"],
    );
    assert.deepEqual((await judge(authority({ mode: "smart" }), "shell", { command: "rm x" })).judgeable, []);
    assert.deepEqual((await judge(smart, "shell", { command: "frobnicate" })).judgeable, []);
    assert.deepEqual((await judge(authority(), "shell", { command: "frobnicate" })).judgeable, []);
  });
});
