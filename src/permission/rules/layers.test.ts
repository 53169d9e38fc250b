import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expectDecision } from "../../../test/support/ledger.js";
import { decideAgent } from "../../agents/select.js";
import { loadConfig } from "../../config/load.js";
import type { Answer, RecordedDecision } from "../../contracts/decisions.js";
import { UsageError } from "../../errors.js";
import type { AuthorityContext } from "../gate/authorize.js";
import { delegateAuthority } from "./delegate.js";
import { evaluateAuthority } from "./intersect.js";
import { buildAuthority } from "./layers.js";
import { decideMode } from "./modes.js";
import type { Rule } from "./rules.js";

describe("buildAuthority: the rule layers of a run", () => {
  let root: string;
  let ws: string;
  let home: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-layers-")));
    ws = join(root, "ws");
    home = join(root, "home");
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(home);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  function build(files: { global?: unknown; project?: unknown; extra?: unknown }, agent?: string, flags = {}) {
    writeFileSync(join(home, "bosun.json"), JSON.stringify(files.global ?? {}));
    writeFileSync(join(ws, "bosun.json"), JSON.stringify(files.project ?? {}, null, 2));
    const env: NodeJS.ProcessEnv = { BOSUN_HOME: home };
    if (files.extra) env.BOSUN_CONFIG_CONTENT = JSON.stringify(files.extra);
    const config = loadConfig({ cwd: ws, env });
    return buildAuthority({
      config,
      agent: decideAgent(agent, config).agent,
      mode: { name: "approve", holder: "code" },
      flags,
      cwd: ws,
      workspace: ws,
      home,
      ownFolders: [join(home, "data", "overflow")],
    });
  }
  const layersOf = (ctx: AuthorityContext) => (ctx.rules as Rule[][]).map((rules) => rules.map((r) => r.source.layer));

  it("orders default, mode, global, project, env, agent, session, saved — each file's rules in its own order", () => {
    const ctx = build(
      {
        global: { permission: { shell: { "*": "ask", "git *": "allow" } } },
        project: {
          permission: { edit: "deny" },
          agent: { build: { permission: { edit: { "*": "ask", "docs/**": "allow" } } } },
        },
        extra: { permission: { web: "allow" } },
      },
      undefined,
      { allow: ["shell:npm test"], deny: ["shell:rm *"] },
    );
    const layers = layersOf(ctx).map((l) => [...new Set(l)].join());
    assert.deepEqual(layers, ["default", "mode", "global", "project", "env", "agent", "session", ""]);
    const rules = (ctx.rules as Rule[][]).flat();
    const global = rules.filter((r) => r.source.layer === "global").map((r) => r.pattern);
    assert.deepEqual(global, ["*", "git *"]);
    const agent = rules.filter((r) => r.source.layer === "agent");
    assert.deepEqual(
      agent.map((r) => [r.pattern, r.source.key]),
      [
        ["*", 'agent.build.permission.edit["*"]'],
        ["docs/**", 'agent.build.permission.edit["docs/**"]'],
      ],
    );
    assert.equal(agent[0]?.source.file, join(ws, "bosun.json"));
    assert.equal(typeof agent[0]?.source.line, "number");
    assert.deepEqual(
      rules.filter((r) => r.source.layer === "session").map((r) => `${r.effect} ${r.source.key}`),
      ["allow --allow shell:npm test", "deny --deny shell:rm *"],
    );
    assert.equal(rules.find((r) => r.source.layer === "env")?.source.file, "BOSUN_CONFIG_CONTENT");
  });

  it("takes only the chosen agent's rules", () => {
    const ctx = build({ project: { agent: { other: { permission: { edit: "allow" } } } } });
    assert.equal((ctx.rules as Rule[][]).flat().filter((r) => r.source.layer === "agent").length, 0);
  });

  it("lets bosun's own overflow folder be read without an external_directory ask", () => {
    const ctx = build({});
    const own = evaluateAuthority(
      ctx.rules,
      [{ action: "external_directory", resource: join(home, "data", "overflow", "s", "f.txt") }],
      {
        workspace: ws,
        home,
      },
    );
    assert.equal(own.effect, "allow");
    const elsewhere = evaluateAuthority(ctx.rules, [{ action: "external_directory", resource: join(home, "other") }], {
      workspace: ws,
      home,
    });
    assert.equal(elsewhere.effect, "ask");
  });

  it("refuses a bad rule naming file, line and key, and a bad flag as a usage error", () => {
    assert.throws(() => build({ project: { permission: { shell: { "rm *": "deny", "*": "allow" } } } }), {
      name: "ConfigError",
      message: new RegExp(
        `^${join(ws, "bosun.json")}:4: key "permission.shell\\["rm \\*"\\]": pattern "rm \\*" can never decide`,
      ),
    });
    assert.throws(() => build({}, undefined, { allow: ["shel:ls"] }), UsageError);
    assert.throws(() => build({}, undefined, { deny: ["edit:../x"] }), /has a "\.\." segment/);
  });

  it("marks the plan agent read-only (code) and a configured read_only agent (config)", () => {
    assert.equal(build({}, "plan").readOnly?.holder, "code");
    const review = build({ project: { agent: { review: { read_only: true } } } }, "review").readOnly;
    assert.equal(review?.holder, "config");
    assert.equal(review?.key, "agent.review.read_only");
    assert.throws(() => build({ project: { agent: { plan: { read_only: false } } } }, "plan"), /always read-only/);
  });
});

describe("decideMode (permission.mode)", () => {
  const recorded = (answer: Answer): RecordedDecision[] => [{ seat: "permission.mode", ...answer, seq: 1, at: "" }];
  const config = (content: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), "bosun-mode-"));
    return loadConfig({ cwd: dir, env: { BOSUN_HOME: dir, BOSUN_CONFIG_CONTENT: JSON.stringify(content) } });
  };

  it("--mode is the person's; else the agent's; else config mode; else approve (code)", () => {
    const loaded = config({ mode: "smart" });
    expectDecision(
      recorded(decideMode("auto", { name: "build", mode: "chat" }, loaded)),
      "permission.mode",
      "person",
      "auto",
    );
    const agent = decideMode(undefined, { name: "build", mode: "chat" }, loaded);
    expectDecision(recorded(agent), "permission.mode", "config", "chat");
    expectDecision(recorded(decideMode(undefined, { name: "build" }, loaded)), "permission.mode", "config", "smart");
    expectDecision(
      recorded(decideMode(undefined, { name: "build" }, config({}))),
      "permission.mode",
      "code",
      "approve",
    );
  });

  it("refuses an unknown mode, listing the modes", () => {
    assert.throws(() => decideMode("yolo", { name: "build" }, config({})), {
      name: "UsageError",
      message: '--mode must be one of approve, smart, auto, chat, not "yolo"',
    });
    // Typed in the interactive session, the error names its command.
    assert.throws(() => decideMode("yolo", { name: "build" }, config({}), "tui"), {
      name: "UsageError",
      message: '/mode must be one of approve, smart, auto, chat, not "yolo"',
    });
  });
});

describe("delegateAuthority: never more than the parent", () => {
  const base = (over: Partial<AuthorityContext>): AuthorityContext => ({
    rules: [[{ action: "edit", pattern: "*", effect: "allow", source: { layer: "project", key: "edit" } }]],
    mode: { name: "approve", holder: "code" },
    cwd: "/w",
    workspace: "/w",
    home: "/h",
    ...over,
  });

  it("keeps the stricter mode, the parent's read-only, the parent's workspace", () => {
    const parent = base({ mode: { name: "approve", holder: "person" }, readOnly: { agent: "plan", holder: "code" } });
    const child = base({ mode: { name: "auto", holder: "config" }, workspace: "/", cwd: "/" });
    const delegate = delegateAuthority(parent, child, { parent: "plan", child: "general" });
    assert.equal(delegate.mode.name, "approve");
    assert.equal(delegate.readOnly?.agent, "plan");
    assert.equal(delegate.workspace, "/w");
    assert.equal(delegate.cwd, "/w");
    assert.equal(
      delegateAuthority(
        base({ mode: { name: "auto", holder: "code" } }),
        base({ mode: { name: "chat", holder: "code" } }),
      ).mode.name,
      "chat",
    );
  });

  it("lets a request through only when both rule sets allow it", () => {
    const parent = base({
      rules: [[{ action: "edit", pattern: "docs/**", effect: "allow", source: { layer: "agent", key: "p" } }]],
    });
    const child = base({});
    const delegate = delegateAuthority(parent, child);
    const opts = { workspace: "/w", home: "/h" };
    assert.equal(
      evaluateAuthority(delegate.rules, [{ action: "edit", resource: "/w/docs/a.md" }], opts).effect,
      "allow",
    );
    assert.equal(evaluateAuthority(delegate.rules, [{ action: "edit", resource: "/w/src/a.ts" }], opts).effect, "ask");
  });
});
