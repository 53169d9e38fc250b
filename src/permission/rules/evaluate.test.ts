import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../../test/support/random.js";
import type { Action, Request } from "../../contracts/requests.js";
import { combine, type EvaluateOptions, evaluate, STRICTNESS, stricter } from "./evaluate.js";
import { type Effect, LAYERS, type Layer, type OrderedLayer, type Rule, rulesFromConfig } from "./rules.js";

const WS = "/ws";
const options: EvaluateOptions = { workspace: WS, home: "/home/u" };

let counter = 0;
/** A rule; its key is unique so assertions can tell rules apart. */
function rule(
  layer: Layer,
  action: Action,
  pattern: string,
  effect: Effect,
  extra: { file?: string; line?: number } = {},
): Rule {
  counter++;
  return { action, pattern, effect, source: { layer, key: `k${counter}`, ...extra } };
}
const req = (action: Action, resource: string): Request => ({ action, resource });
const shell = (command: string) => req("shell", command);
const effectOf = (requests: Request[], layers: Rule[][], opts: EvaluateOptions = options) =>
  evaluate(requests, layers, opts).effect;

describe("stricter and combine", () => {
  it("rank deny > ask > allow", () => {
    assert.deepEqual(STRICTNESS, { allow: 0, ask: 1, deny: 2 });
    const table: Array<[Effect, Effect, Effect]> = [
      ["allow", "allow", "allow"],
      ["allow", "ask", "ask"],
      ["allow", "deny", "deny"],
      ["ask", "allow", "ask"],
      ["ask", "ask", "ask"],
      ["ask", "deny", "deny"],
      ["deny", "allow", "deny"],
      ["deny", "ask", "deny"],
      ["deny", "deny", "deny"],
    ];
    for (const [a, b, expected] of table) assert.equal(stricter(a, b), expected, `${a} ${b}`);
  });

  it("combine: any deny → deny, else any ask → ask, else allow; none → ask", () => {
    assert.equal(combine([]), "ask");
    assert.equal(combine(["allow"]), "allow");
    assert.equal(combine(["allow", "allow"]), "allow");
    assert.equal(combine(["allow", "ask"]), "ask");
    assert.equal(combine(["ask", "allow", "allow"]), "ask");
    assert.equal(combine(["allow", "deny", "ask"]), "deny");
    assert.equal(combine(["deny"]), "deny");
  });
});

describe("evaluate: one layer", () => {
  it("no requests → ask (fail closed), with a reason", () => {
    const result = evaluate([], [[rule("default", "read", "*", "allow")]], options);
    assert.deepEqual(result, {
      effect: "ask",
      perRequest: [],
      reasons: [{ rule: "no requests", detail: "ask — the call named nothing to check (fail closed)", decisive: true }],
    });
  });

  it("no rules at all → ask", () => {
    const result = evaluate([shell("ls")], [], options);
    assert.equal(result.effect, "ask");
    assert.deepEqual(result.perRequest, [{ request: shell("ls"), effect: "ask" }]);
    assert.equal("rule" in (result.perRequest[0] ?? {}), false);
  });

  it("a request no rule matches → ask, even among allows", () => {
    const rules = [rule("project", "shell", "ls *", "allow")];
    assert.equal(effectOf([shell("ls")], [rules]), "allow");
    assert.equal(effectOf([shell("ls"), shell("cat x")], [rules]), "ask");
    // A rule for another action never matches.
    assert.equal(effectOf([req("read", "/ws/a")], [[rule("project", "edit", "*", "allow")]]), "ask");
  });

  /** [rules as [pattern, effect], command, expected] — the last matching rule wins. */
  const LAST_MATCH: Array<[Array<[string, Effect]>, string, Effect]> = [
    [
      [
        ["*", "ask"],
        ["git status *", "allow"],
      ],
      "git status",
      "allow",
    ],
    [
      [
        ["git status *", "allow"],
        ["*", "ask"],
      ],
      "git status",
      "ask",
    ],
    [
      [
        ["*", "deny"],
        ["git *", "allow"],
        ["git push *", "ask"],
      ],
      "git push origin",
      "ask",
    ],
    [
      [
        ["*", "deny"],
        ["git *", "allow"],
        ["git push *", "ask"],
      ],
      "git log",
      "allow",
    ],
    [
      [
        ["*", "deny"],
        ["git *", "allow"],
        ["git push *", "ask"],
      ],
      "npm test",
      "deny",
    ],
    [
      [
        ["git *", "deny"],
        ["git *", "allow"],
      ],
      "git log",
      "allow",
    ],
    [
      [
        ["git *", "allow"],
        ["git *", "deny"],
      ],
      "git log",
      "deny",
    ],
    [
      [
        ["git push*", "ask"],
        ["git status*", "allow"],
      ],
      "git push",
      "ask",
    ],
  ];
  for (const [rules, command, expected] of LAST_MATCH) {
    it(`last match: ${JSON.stringify(rules)} on ${JSON.stringify(command)} → ${expected}`, () => {
      const layer = rules.map(([pattern, effect]) => rule("project", "shell", pattern, effect));
      const result = evaluate([shell(command)], [layer], options);
      assert.equal(result.effect, expected);
      const deciding = layer
        .filter((r) => r.pattern === "*" || command.startsWith(r.pattern.replace(/ ?\*$/, "")))
        .at(-1);
      assert.equal(result.perRequest[0]?.rule, deciding);
    });
  }

  it("the issue's example config", () => {
    const layer = [
      rule("default", "read", "*", "allow"),
      ...rulesFromConfig(
        {
          edit: "ask",
          // The issue wrote "*" last, which would silence the others (rulesFromConfig refuses it).
          shell: { "*": "ask", "git status*": "allow", "git push*": "ask" },
          read: { "**/.env*": "deny" },
        },
        { layer: "project" },
      ),
    ];
    const cases: Array<[Request, Effect]> = [
      [req("edit", "/ws/src/a.ts"), "ask"],
      [shell("git status"), "allow"],
      [shell("git status -s"), "allow"],
      [shell("rm -rf x"), "ask"],
      [shell("git push"), "ask"],
      [req("read", "/ws/src/a.ts"), "allow"],
      [req("read", "/ws/.env"), "deny"],
      [req("read", "/ws/config/.env.production"), "deny"],
      [req("web", "example.com"), "ask"],
    ];
    for (const [request, expected] of cases) assert.equal(effectOf([request], [layer]), expected, request.resource);
  });
});

describe("evaluate: layers", () => {
  const CONFIGURED: OrderedLayer[] = ["default", "mode", "global", "project", "env", "agent", "session"];
  const EFFECTS: Effect[] = ["allow", "ask", "deny"];

  it("a later configured layer's match beats an earlier one's, for every pair and effect", () => {
    for (const [i, early] of CONFIGURED.entries()) {
      for (const late of CONFIGURED.slice(i + 1)) {
        for (const e1 of EFFECTS) {
          for (const e2 of EFFECTS) {
            const a = rule(early, "edit", "*", e1);
            const b = rule(late, "edit", "src/**", e2);
            const result = evaluate([req("edit", "/ws/src/a.ts")], [[a], [b]], options);
            assert.equal(result.effect, e2, `${early}:${e1} then ${late}:${e2}`);
            assert.equal(result.perRequest[0]?.rule, b);
            // Given in the wrong array order, the layer names still decide.
            assert.equal(evaluate([req("edit", "/ws/src/a.ts")], [[b], [a]], options).perRequest[0]?.rule, b);
            assert.equal(evaluate([req("edit", "/ws/src/a.ts")], [[b, a]], options).perRequest[0]?.rule, b);
          }
        }
      }
    }
  });

  it("an earlier layer still decides what a later one does not match", () => {
    const layers = [[rule("default", "edit", "*", "ask")], [rule("project", "edit", "docs/**", "allow")]];
    assert.equal(effectOf([req("edit", "/ws/docs/a.md")], layers), "allow");
    assert.equal(effectOf([req("edit", "/ws/src/a.ts")], layers), "ask");
  });

  it("keeps the given order among rules of the same layer, across arrays", () => {
    const first = rule("project", "shell", "*", "allow");
    const second = rule("project", "shell", "*", "deny");
    assert.equal(evaluate([shell("x")], [[first], [second]], options).perRequest[0]?.rule, second);
    assert.equal(evaluate([shell("x")], [[second], [first]], options).perRequest[0]?.rule, first);
  });

  it("combines requests: any deny → deny; else any ask → ask; else allow", () => {
    const layer = [
      rule("project", "shell", "ok *", "allow"),
      rule("project", "shell", "maybe *", "ask"),
      rule("project", "shell", "no *", "deny"),
    ];
    const cases: Array<[string[], Effect]> = [
      [["ok"], "allow"],
      [["ok", "ok 2"], "allow"],
      [["ok", "maybe"], "ask"],
      [["maybe", "ok"], "ask"],
      [["ok", "no", "maybe"], "deny"],
      [["no"], "deny"],
      [["ok", "unknown"], "ask"],
      [["no", "unknown"], "deny"],
    ];
    for (const [commands, expected] of cases) {
      assert.equal(effectOf(commands.map(shell), [layer]), expected, commands.join(" && "));
    }
  });
});

describe("evaluate: saved approvals", () => {
  const approval = (pattern: string, effect: Effect = "allow") => rule("saved", "shell", pattern, effect);

  it("turn an ask into an allow, naming the saved rule", () => {
    const saved = approval("npm test *");
    const result = evaluate([shell("npm test")], [[rule("default", "shell", "*", "ask")], [saved]], options);
    assert.equal(result.effect, "allow");
    assert.equal(result.perRequest[0]?.rule, saved);
  });

  it("turn an unmatched request (ask) into an allow", () => {
    assert.equal(effectOf([shell("npm test")], [[approval("npm test *")]]), "allow");
  });

  it("never lift a configured deny", () => {
    for (const layer of ["default", "mode", "global", "project", "agent", "session"] as const) {
      const deny = rule(layer, "shell", "rm *", "deny");
      const result = evaluate([shell("rm -rf build")], [[deny], [approval("rm *")]], options);
      assert.equal(result.effect, "deny", layer);
      assert.equal(result.perRequest[0]?.rule, deny);
      assert.match(result.reasons.map((r) => r.detail).join("\n"), /saved approval "rm \*" not applied/);
    }
  });

  it("never lift a deny that a later configured rule overrode with ask (the ask stays)", () => {
    const deny = rule("global", "shell", "rm *", "deny");
    const ask = rule("project", "shell", "*", "ask");
    const result = evaluate([shell("rm x")], [[deny], [ask], [approval("rm *")]], options);
    assert.equal(result.effect, "ask");
    assert.equal(result.perRequest[0]?.rule, ask);
  });

  it("do not turn a deny shadowed by a configured allow back (allow stays allow)", () => {
    const layers = [
      [rule("global", "shell", "git *", "deny")],
      [rule("project", "shell", "git *", "allow")],
      [approval("git *")],
    ];
    assert.equal(effectOf([shell("git log")], layers), "allow");
  });

  it("cannot lift a deny even when given before the configured layers", () => {
    const deny = rule("project", "shell", "rm *", "deny");
    assert.equal(effectOf([shell("rm x")], [[approval("rm *")], [deny]]), "deny");
  });

  it("may make an answer stricter", () => {
    const result = evaluate(
      [shell("ls")],
      [[rule("project", "shell", "*", "allow")], [approval("ls", "deny")]],
      options,
    );
    assert.equal(result.effect, "deny");
    assert.equal(result.perRequest[0]?.rule?.source.layer, "saved");
  });

  it("apply only to requests they match: a compound line is not approved by its first command", () => {
    const layers = [[rule("default", "shell", "*", "ask")], [approval("git status *")]];
    const result = evaluate([shell("git status"), shell("rm -rf /")], layers, options);
    assert.equal(result.effect, "ask");
    assert.deepEqual(
      result.perRequest.map((p) => p.effect),
      ["allow", "ask"],
    );
  });

  it("last saved match wins among saved approvals", () => {
    assert.equal(effectOf([shell("x")], [[approval("*", "deny"), approval("x")]]), "allow");
  });
});

describe("evaluate: policy", () => {
  const policy = (action: Action, pattern: string) =>
    rule("policy", action, pattern, "deny", { file: "/etc/bosun/policy.json", line: 3 });

  it("denies after everything, whatever the layers and saved approvals said", () => {
    const p = policy("shell", "curl *");
    for (const layer of ["default", "mode", "global", "project", "agent", "session", "saved"] as const) {
      const result = evaluate([shell("curl x")], [[rule(layer, "shell", "curl *", "allow")]], {
        ...options,
        policy: [p],
      });
      assert.equal(result.effect, "deny", layer);
      assert.equal(result.perRequest[0]?.rule, p);
    }
  });

  it("denies an unmatched request", () => {
    assert.equal(effectOf([shell("curl x")], [], { ...options, policy: [policy("shell", "curl *")] }), "deny");
  });

  it("changes nothing when it does not match", () => {
    const layers = [[rule("project", "shell", "*", "allow")]];
    assert.equal(effectOf([shell("ls")], layers, { ...options, policy: [policy("shell", "curl *")] }), "allow");
  });

  it("is deny-only: an allow or ask policy rule is refused", () => {
    assert.throws(
      () => evaluate([shell("ls")], [], { ...options, policy: [rule("policy", "shell", "*", "allow")] }),
      /must be a deny from layer "policy"/,
    );
    assert.throws(
      () => evaluate([shell("ls")], [], { ...options, policy: [rule("policy", "shell", "*", "ask")] }),
      TypeError,
    );
    assert.throws(
      () => evaluate([shell("ls")], [], { ...options, policy: [rule("project", "shell", "*", "deny")] }),
      TypeError,
    );
  });

  it("cannot ride in a layer", () => {
    assert.throws(
      () => evaluate([shell("ls")], [[rule("policy", "shell", "*", "deny")]], options),
      /policy rules go in options.policy/,
    );
  });

  it("names itself and what it overrode in the reason", () => {
    const allow = rule("project", "shell", "curl *", "allow");
    const p = policy("shell", "curl *");
    const result = evaluate([shell("curl x")], [[allow]], { ...options, policy: [p] });
    assert.deepEqual(result.reasons, [
      {
        rule: "shell:curl x",
        source: "/etc/bosun/policy.json",
        key: p.source.key,
        line: 3,
        detail:
          'deny — policy rule "curl *" (policy cannot be overridden; the rules said allow by project rule shell "curl *" → allow)',
        decisive: true,
      },
    ]);
  });
});

describe("evaluate: path requests", () => {
  it("matches workspace-relative, absolute and home patterns on resolved paths", () => {
    const layer = rulesFromConfig(
      {
        read: { "*": "allow", "**/.env*": "deny", "/etc/**": "deny", "~/.ssh/**": "deny" },
        edit: { "*": "ask", "src/**": "allow" },
      },
      { layer: "project" },
    );
    const cases: Array<[Request, Effect]> = [
      [req("read", "/ws/src/a.ts"), "allow"],
      [req("read", "/ws/.env"), "deny"],
      [req("read", "/elsewhere/.env.local"), "deny"],
      [req("read", "/etc/passwd"), "deny"],
      [req("read", "/home/u/.ssh/id_rsa"), "deny"],
      [req("read", "/home/u/notes"), "allow"],
      [req("edit", "/ws/src/deep/a.ts"), "allow"],
      [req("edit", "/ws/README.md"), "ask"],
      [req("edit", "/src/a.ts"), "ask"],
      [req("edit", "/wsx/src/a.ts"), "ask"],
    ];
    for (const [request, expected] of cases) assert.equal(effectOf([request], [layer]), expected, request.resource);
  });

  it("denies a path request that was not resolved (a tool bug must not slip past absolute patterns)", () => {
    const layer = [rule("default", "read", "*", "allow"), rule("default", "edit", "*", "allow")];
    for (const resource of ["src/a.ts", "../etc/passwd", "/ws/../etc/passwd", "/ws/./a", "/ws/a/", "", "/ws//a"]) {
      const result = evaluate([req("read", resource)], [layer], options);
      assert.equal(result.effect, "deny", JSON.stringify(resource));
      assert.match(result.reasons[0]?.detail ?? "", /not an absolute, normalized path/);
      assert.equal(result.perRequest[0]?.rule, undefined);
    }
    assert.equal(effectOf([req("edit", "/ws/a")], [layer]), "allow");
  });

  it("refuses a relative workspace", () => {
    assert.throws(() => evaluate([], [], { workspace: "ws" }), /workspace must be an absolute path/);
  });

  it("expands ~ with the home it is given", () => {
    const layer = [rule("project", "read", "~/secret", "deny"), rule("default", "read", "*", "allow")];
    assert.equal(effectOf([req("read", "/h/secret")], [layer], { workspace: WS, home: "/h" }), "deny");
    assert.equal(effectOf([req("read", "/home/u/secret")], [layer], { workspace: WS, home: "/h" }), "allow");
  });
});

describe("evaluate: reasons", () => {
  it("name each request, its effect and the deciding rule's layer, file, line, key and pattern", () => {
    const allow = rule("project", "shell", "git status *", "allow", { file: "/ws/bosun.json", line: 7 });
    const ask = rule("default", "edit", "*", "ask");
    const result = evaluate(
      [shell("git status"), req("edit", "/ws/a.ts"), req("web", "x.com")],
      [[ask], [allow]],
      options,
    );
    assert.equal(result.effect, "ask");
    assert.deepEqual(result.reasons, [
      {
        rule: "shell:git status",
        source: "/ws/bosun.json",
        key: allow.source.key,
        line: 7,
        detail: 'allow — project rule shell "git status *" → allow, last match',
      },
      {
        rule: "edit:/ws/a.ts",
        source: "default rules",
        key: ask.source.key,
        detail: 'ask — default rule edit "*" → ask, last match',
        decisive: true,
      },
      { rule: "web:x.com", detail: "ask — no rule matches (fail closed)", decisive: true },
    ]);
    assert.deepEqual(result.perRequest, [
      { request: shell("git status"), effect: "allow", rule: allow },
      { request: req("edit", "/ws/a.ts"), effect: "ask", rule: ask },
      { request: req("web", "x.com"), effect: "ask" },
    ]);
  });

  it("mark every request decisive when the call is allowed", () => {
    const layer = [rule("project", "shell", "*", "allow")];
    const result = evaluate([shell("a"), shell("b")], [layer], options);
    assert.deepEqual(
      result.reasons.map((r) => r.decisive),
      [true, true],
    );
  });

  it("mark only the denied requests decisive when the call is denied", () => {
    const layer = [rule("project", "shell", "a", "allow"), rule("project", "shell", "b", "deny")];
    const result = evaluate([shell("a"), shell("b"), shell("c")], [layer], options);
    assert.deepEqual(
      result.reasons.map((r) => [r.rule, r.decisive ?? false]),
      [
        ["shell:a", false],
        ["shell:b", true],
        ["shell:c", false],
      ],
    );
  });

  it("record a saved approval that was not applied, with the deny that blocked it", () => {
    const deny = rule("global", "shell", "rm *", "deny", { file: "/home/u/.config/bosun/bosun.json", line: 4 });
    const saved = rule("saved", "shell", "rm *", "allow");
    const result = evaluate([shell("rm x")], [[deny], [saved]], options);
    assert.deepEqual(result.reasons, [
      {
        rule: "shell:rm x",
        source: "/home/u/.config/bosun/bosun.json",
        key: deny.source.key,
        line: 4,
        detail: 'deny — global rule shell "rm *" → deny, last match',
        decisive: true,
      },
      {
        rule: "shell:rm x",
        source: "/home/u/.config/bosun/bosun.json",
        key: deny.source.key,
        line: 4,
        detail:
          'saved approval "rm *" not applied: a global rule "rm *" denies this, and saved approvals never lift a configured deny',
      },
    ]);
  });
});

const random = seededRandom;

describe("evaluate: properties on random rule sets", () => {
  const rand = random(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const SHELL_PATTERNS = ["*", "git *", "git status *", "git push*", "rm *", "ls", "npm test *"];
  const PATH_PATTERNS = ["*", "src/**", "**/.env*", "/etc/**", "*.ts", "src/*"];
  const COMMANDS = ["git status", "git status -s", "git push", "rm -rf x", "ls", "npm test", "cat a"];
  const PATHS = ["/ws/src/a.ts", "/ws/.env", "/etc/passwd", "/ws/a.ts", "/ws/src/x/y.js", "/tmp/.env.local"];
  const randomRule = (layer: Layer): Rule =>
    rand() < 0.5
      ? rule(layer, "shell", pick(SHELL_PATTERNS), pick(["allow", "ask", "deny"] as const))
      : rule(layer, "edit", pick(PATH_PATTERNS), pick(["allow", "ask", "deny"] as const));
  const randomLayers = (withSaved: boolean): Rule[][] => {
    const layers = LAYERS.filter((l) => withSaved || l !== "saved");
    return Array.from({ length: Math.floor(rand() * 4) }, () =>
      Array.from({ length: Math.floor(rand() * 4) }, () => randomRule(pick(layers))),
    );
  };
  const randomRequests = (): Request[] =>
    Array.from({ length: Math.floor(rand() * 4) }, () =>
      rand() < 0.5 ? shell(pick(COMMANDS)) : req("edit", pick(PATHS)),
    );

  it("hold for 3000 random cases", () => {
    for (let n = 0; n < 3000; n++) {
      const configured = randomLayers(false);
      const saved = Array.from({ length: Math.floor(rand() * 3) }, () => randomRule("saved"));
      const requests = randomRequests();
      const without = evaluate(requests, configured, options);
      const withSaved = evaluate(requests, [...configured, saved], options);

      // The call's effect is the combination of its requests'; none → ask.
      assert.equal(without.effect, combine(without.perRequest.map((p) => p.effect)));
      if (requests.length === 0) assert.equal(without.effect, "ask");
      assert.equal(without.perRequest.length, requests.length);

      for (const [i, request] of requests.entries()) {
        const before = without.perRequest[i];
        const after = withSaved.perRequest[i];
        assert.ok(before && after);
        // The deciding rule matches and carries the effect; no rule → ask.
        if (before.rule) assert.equal(before.rule.effect, before.effect);
        else assert.equal(before.effect, "ask");
        // Saved approvals never lift a deny said by any matching configured rule.
        const anyDeny = configured.flat().some((r) => r.effect === "deny" && matchesSame(r, request));
        if (before.effect === "deny")
          assert.equal(after.effect, "deny", JSON.stringify({ request, configured, saved }));
        if (anyDeny) assert.ok(STRICTNESS[after.effect] >= STRICTNESS[before.effect]);
      }

      // A matching policy deny makes every request it matches deny.
      const policy = [rule("policy", "shell", pick(SHELL_PATTERNS), "deny")];
      const withPolicy = evaluate(requests, [...configured, saved], { ...options, policy });
      for (const [i, p] of withPolicy.perRequest.entries()) {
        const plain = withSaved.perRequest[i];
        assert.ok(plain);
        assert.ok(STRICTNESS[p.effect] >= STRICTNESS[plain.effect]);
        if (p.rule?.source.layer === "policy") assert.equal(p.effect, "deny");
      }
    }
  });

  /** Does the rule match the request? Through evaluate, so the same matcher is used. */
  function matchesSame(r: Rule, request: Request): boolean {
    return (
      evaluate([request], [[{ ...r, source: { ...r.source, layer: "default" } }]], options).perRequest[0]?.rule !==
      undefined
    );
  }
});
