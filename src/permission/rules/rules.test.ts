import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseJsonc } from "../../config/jsonc.js";
import { ConfigError, UsageError } from "../../errors.js";
import { evaluate } from "./evaluate.js";
import { matchPath } from "./match.js";
import { LAYERS, layerRank, type Rule, resolveRulePatterns, ruleFromSpec, rulesFromConfig } from "./rules.js";

describe("rulesFromConfig", () => {
  it("turns the issue's example into rules in document order, a bare effect being pattern *", () => {
    const rules = rulesFromConfig(
      {
        edit: "ask",
        shell: { "*": "ask", "git status*": "allow", "git push*": "ask" },
        read: { "**/.env*": "deny" },
      },
      { layer: "project", file: "/p/bosun.json" },
    );
    assert.deepEqual(
      rules.map((r) => [r.action, r.pattern, r.effect, r.source.key]),
      [
        ["edit", "*", "ask", "permission.edit"],
        ["shell", "*", "ask", 'permission.shell["*"]'],
        ["shell", "git status*", "allow", 'permission.shell["git status*"]'],
        ["shell", "git push*", "ask", 'permission.shell["git push*"]'],
        ["read", "**/.env*", "deny", 'permission.read["**/.env*"]'],
      ],
    );
    for (const rule of rules)
      assert.deepEqual(rule.source, { layer: "project", file: "/p/bosun.json", key: rule.source.key });
  });

  it("gives every rule the line it stands on in its file", () => {
    const text = [
      "{",
      '  "permission": {',
      '    "edit": "ask",',
      '    "shell": {',
      '      "*": "ask",',
      '      "git status *": "allow"',
      "    }",
      "  }",
      "}",
    ].join("\n");
    const doc = parseJsonc(text, "/p/bosun.json");
    const rules = rulesFromConfig((doc.data as { permission: unknown }).permission, {
      layer: "global",
      file: "/p/bosun.json",
      lineOf: doc.lineOf,
    });
    assert.deepEqual(rules, [
      {
        action: "edit",
        pattern: "*",
        effect: "ask",
        source: { layer: "global", file: "/p/bosun.json", line: 3, key: "permission.edit" },
      },
      {
        action: "shell",
        pattern: "*",
        effect: "ask",
        source: { layer: "global", file: "/p/bosun.json", line: 5, key: 'permission.shell["*"]' },
      },
      {
        action: "shell",
        pattern: "git status *",
        effect: "allow",
        source: { layer: "global", file: "/p/bosun.json", line: 6, key: 'permission.shell["git status *"]' },
      },
    ]);
  });

  it("refuses a catch-all after other patterns: the patterns before it could never decide", () => {
    const text = '{\n  "permission": {\n    "shell": {\n      "rm *": "deny",\n      "*": "allow"\n    }\n  }\n}';
    const doc = parseJsonc(text, "/p/bosun.json");
    assert.throws(
      () =>
        rulesFromConfig((doc.data as { permission: unknown }).permission, {
          layer: "project",
          file: "/p/bosun.json",
          lineOf: doc.lineOf,
        }),
      {
        name: "ConfigError",
        message:
          '/p/bosun.json:4: key "permission.shell["rm *"]": pattern "rm *" can never decide: the later "*" (line 5) matches everything, and the LAST matching pattern wins. Put "*" first, then the exceptions',
      },
    );
    assert.throws(
      () => rulesFromConfig({ read: { "a/**": "deny", "**": "allow" } }, { layer: "global" }),
      /never decide/,
    );
    // First is fine; across layers, a later layer's "*" overriding is the point of layers.
    assert.equal(rulesFromConfig({ shell: { "*": "ask", "ls *": "allow" } }, { layer: "global" }).length, 2);
  });

  it("names keys under another key path (an agent's rules)", () => {
    const rules = rulesFromConfig({ edit: "deny" }, { layer: "agent", keyPath: ["agent", "plan", "permission"] });
    assert.deepEqual(rules, [
      { action: "edit", pattern: "*", effect: "deny", source: { layer: "agent", key: "agent.plan.permission.edit" } },
    ]);
  });

  it("gives no rules for an absent object or empty maps", () => {
    assert.deepEqual(rulesFromConfig(undefined, { layer: "global" }), []);
    assert.deepEqual(rulesFromConfig({}, { layer: "global" }), []);
    assert.deepEqual(rulesFromConfig({ shell: {} }, { layer: "global" }), []);
  });

  it("accepts every action and every effect", () => {
    const value = Object.fromEntries(
      ["read", "edit", "shell", "external_directory", "web", "delegate", "mcp", "skill"].map((a) => [
        a,
        { "x*": "allow", "y*": "ask", "z*": "deny" },
      ]),
    );
    assert.equal(rulesFromConfig(value, { layer: "project" }).length, 24);
  });

  /** [value, layer, message pattern] */
  const INVALID: Array<[unknown, "project" | "policy", RegExp]> = [
    [[], "project", /key "permission": expected an object mapping actions to rules, received an array/],
    ["allow", "project", /key "permission": expected an object .*received "allow"/],
    [null, "project", /key "permission": .*received null/],
    [{ shel: "ask" }, "project", /key "permission.shel": unknown action "shel" — did you mean "shell"\?/],
    [{ write: "ask" }, "project", /unknown action "write".*\(actions: read, edit, shell, external_directory/],
    [{ edit: "yes" }, "project", /key "permission.edit": expected "allow", "ask" or "deny", received "yes"/],
    [{ edit: true }, "project", /key "permission.edit": expected .*received boolean true/],
    [{ edit: null }, "project", /key "permission.edit": expected .*received null/],
    [{ edit: ["allow"] }, "project", /key "permission.edit": expected .*received an array/],
    [{ edit: 1 }, "project", /received number 1/],
    [
      { shell: { "git *": "Allow" } },
      "project",
      /key "permission.shell\["git \*"\]": expected "allow", "ask" or "deny", received "Allow"/,
    ],
    [
      { shell: { "git *": { push: "ask" } } },
      "project",
      /key "permission.shell\["git \*"\]": expected .*received an object/,
    ],
    [{ shell: { "": "ask" } }, "project", /a pattern may not be empty/],
    [{ shell: { "  ": "ask" } }, "project", /a pattern may not be empty/],
    [{ read: { "10": "deny" } }, "project", /pattern "10" is a bare number/],
    [{ read: { "../other/**": "deny" } }, "project", /has a "\.\." segment/],
    [{ edit: { "/work/a/../b/**": "deny" } }, "project", /has a "\.\." segment/],
    [{ external_directory: { "..": "allow" } }, "project", /has a "\.\." segment/],
    [{ edit: "allow" }, "policy", /key "permission.edit": policy rules may only deny/],
    [
      { shell: { "rm *": "deny", "ls *": "ask" } },
      "policy",
      /key "permission.shell\["ls \*"\]": policy rules may only deny/,
    ],
  ];

  for (const [value, layer, message] of INVALID) {
    it(`rejects ${JSON.stringify(value)} in the ${layer} layer`, () => {
      assert.throws(
        () => rulesFromConfig(value, { layer, file: "/p/bosun.json" }),
        (error: unknown) =>
          error instanceof ConfigError && message.test(error.message) && error.message.startsWith("/p/bosun.json"),
      );
    });
  }

  it("allows `..` inside a name and in non-path patterns", () => {
    assert.equal(rulesFromConfig({ read: { "a..b/**": "deny" } }, { layer: "project" }).length, 1);
    assert.equal(rulesFromConfig({ shell: { "cd ..": "allow" } }, { layer: "project" }).length, 1);
  });

  it("accepts number-like patterns that keep their place (a leading zero, a dot)", () => {
    const rules = rulesFromConfig({ read: { "*": "allow", "01": "deny", "1.5": "deny" } }, { layer: "project" });
    assert.deepEqual(
      rules.map((r) => r.pattern),
      ["*", "01", "1.5"],
    );
  });

  it("names the file and line of a bad key, without a file the layer", () => {
    const doc = parseJsonc('{\n  "permission": {\n    "shell": {\n      "git *": "yes"\n    }\n  }\n}', "/g.json");
    assert.throws(
      () =>
        rulesFromConfig((doc.data as { permission: unknown }).permission, {
          layer: "global",
          file: "/g.json",
          lineOf: doc.lineOf,
        }),
      { message: '/g.json:4: key "permission.shell["git *"]": expected "allow", "ask" or "deny", received "yes"' },
    );
    assert.throws(() => rulesFromConfig({ edit: "no" }, { layer: "session" }), /^ConfigError: session rules: key/);
  });

  it("accepts deny-only policy", () => {
    const rules = rulesFromConfig(
      { shell: { "rm -rf *": "deny" }, web: "deny" },
      { layer: "policy", file: "/etc/bosun/policy.json" },
    );
    assert.deepEqual(
      rules.map((r) => [r.source.layer, r.effect]),
      [
        ["policy", "deny"],
        ["policy", "deny"],
      ],
    );
  });
});

describe("ruleFromSpec", () => {
  /** [spec, action, pattern] */
  const CASES: Array<[string, string, string]> = [
    ["shell:npm test", "shell", "npm test"],
    ["edit", "edit", "*"],
    ["shell:git commit -m a:b", "shell", "git commit -m a:b"],
    ["read:src/**", "read", "src/**"],
    ["web:*.github.com", "web", "*.github.com"],
    ["mcp:github/*", "mcp", "github/*"],
  ];
  for (const [spec, action, pattern] of CASES) {
    it(`reads ${JSON.stringify(spec)}`, () => {
      const rule = ruleFromSpec(spec, "allow", { layer: "session" });
      assert.deepEqual(rule, { action, pattern, effect: "allow", source: { layer: "session", key: spec } });
    });
  }

  it("keeps a given key and source", () => {
    assert.deepEqual(ruleFromSpec("shell:ls", "deny", { layer: "session", key: "--deny shell:ls" }).source, {
      layer: "session",
      key: "--deny shell:ls",
    });
  });

  it("rejects unknown actions, empty patterns, `..` paths and non-deny policy", () => {
    assert.throws(
      () => ruleFromSpec("shel:ls", "allow", { layer: "session" }),
      /unknown action "shel" — did you mean "shell"/,
    );
    assert.throws(() => ruleFromSpec("shell:", "allow", { layer: "session" }), UsageError);
    assert.throws(() => ruleFromSpec("", "allow", { layer: "session" }), UsageError);
    assert.throws(() => ruleFromSpec("edit:../x", "allow", { layer: "session" }), /"\.\." segment/);
    assert.throws(() => ruleFromSpec("edit", "allow", { layer: "policy" }), /policy rules may only deny/);
    assert.equal(ruleFromSpec("edit", "deny", { layer: "policy" }).effect, "deny");
  });
});

describe("layers", () => {
  it("are ordered default, mode, global, project, env, agent, session, saved, then policy", () => {
    assert.deepEqual([...LAYERS], ["default", "mode", "global", "project", "env", "agent", "session", "saved"]);
    const ranks = [...LAYERS, "policy" as const].map(layerRank);
    assert.deepEqual(ranks, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe("resolveRulePatterns", () => {
  let root: string;
  let ws: string;
  let home: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-rules-")));
    ws = join(root, "ws");
    home = join(root, "home-link");
    mkdirSync(join(root, "real-etc"), { recursive: true });
    mkdirSync(join(root, "elsewhere", "vendor"), { recursive: true });
    mkdirSync(join(root, "real-home", ".ssh"), { recursive: true });
    mkdirSync(join(root, "odd[1]"), { recursive: true });
    mkdirSync(join(ws, "src"), { recursive: true });
    symlinkSync(join(root, "real-etc"), join(root, "etc-link"));
    symlinkSync(join(root, "elsewhere", "vendor"), join(ws, "vendor"));
    symlinkSync(join(root, "real-home"), home);
    symlinkSync(join(root, "odd[1]"), join(root, "odd-link"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const rule = (action: Rule["action"], pattern: string, effect: Rule["effect"] = "deny"): Rule => ({
    action,
    pattern,
    effect,
    source: { layer: "project", key: `permission.${action}` },
  });

  it("adds a twin with the real folder for an absolute pattern through a symlink", () => {
    const original = rule("read", `${root}/etc-link/**`);
    assert.deepEqual(resolveRulePatterns([original], { workspace: ws, home }), [
      original,
      { ...original, pattern: `${root}/real-etc/**` },
    ]);
  });

  it("resolves ~ and workspace-relative folders too", () => {
    const out = resolveRulePatterns([rule("read", "~/.ssh/**"), rule("edit", "vendor/**")], { workspace: ws, home });
    assert.deepEqual(
      out.map((r) => r.pattern),
      ["~/.ssh/**", `${root}/real-home/.ssh/**`, "vendor/**", `${root}/elsewhere/vendor/**`],
    );
  });

  it("adds nothing when no symlink is involved, for `*`, for leading globs and for other actions", () => {
    const rules = [
      rule("read", "src/**"),
      rule("read", "*"),
      rule("read", "**/.env*"),
      rule("read", "*.ts"),
      rule("read", "/**"),
      rule("read", `${root}/real-etc/**`),
      rule("shell", `${root}/etc-link/**`),
      rule("web", "etc-link"),
    ];
    assert.deepEqual(resolveRulePatterns(rules, { workspace: ws, home }), rules);
  });

  it("handles a pattern with no glob and a folder with trailing slash", () => {
    const out = resolveRulePatterns([rule("read", `${root}/etc-link`), rule("read", `${root}/etc-link/`)], {
      workspace: ws,
      home,
    });
    assert.deepEqual(
      out.map((r) => r.pattern),
      [`${root}/etc-link`, `${root}/real-etc`, `${root}/etc-link/`, `${root}/real-etc/**`],
    );
  });

  it("escapes glob characters in the resolved folder", () => {
    const [, twin] = resolveRulePatterns([rule("read", `${root}/odd-link/**`)], { workspace: ws, home });
    assert.equal(twin?.pattern, `${root}/odd\\[1\\]/**`);
    assert.equal(matchPath(twin?.pattern ?? "", `${root}/odd[1]/secret`, { workspace: ws, home }), true);
    assert.equal(matchPath(twin?.pattern ?? "", `${root}/odd1/secret`, { workspace: ws, home }), false);
  });

  it("makes a deny written through a symlink hold against resolved requests", () => {
    const layers = [[rule("read", "*", "allow"), rule("read", `${root}/etc-link/**`)]];
    const request = { action: "read" as const, resource: `${root}/real-etc/passwd` };
    assert.equal(evaluate([request], layers, { workspace: ws, home }).effect, "allow", "without: the deny misses");
    const resolved = [resolveRulePatterns(layers[0] ?? [], { workspace: ws, home })];
    assert.equal(evaluate([request], resolved, { workspace: ws, home }).effect, "deny");
  });
});
