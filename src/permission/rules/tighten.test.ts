import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../../test/support/random.js";
import type { ModeName } from "../../contracts/modes.js";
import type { Request } from "../../contracts/requests.js";
import { type AuthorityContext, authorize } from "../gate/authorize.js";
import { defaultRules } from "./defaults.js";
import { evaluate, STRICTNESS } from "./evaluate.js";
import { MODES } from "./modes.js";
import { type Effect, type Layer, type Rule, rulesFromConfig } from "./rules.js";

/**
 * Seat project.trust, item 3 of the authority's second round: a repository nobody trusted may
 * only tighten. Its rules (its `permission` and its agents') are marked `tightenOnly`; per
 * request, its file's own answer applies only when it is at least as strict as the layers below.
 */

const WS = "/w";
const HOME = "/home/u";

function rules(layer: Layer, permission: Record<string, unknown>, file: string, repository?: boolean): Rule[] {
  return rulesFromConfig(permission, {
    layer,
    file,
    ...(repository ? { repository: { trusted: false } } : {}),
  });
}

function context(layers: Rule[][], mode: ModeName = "approve", readOnly = false): AuthorityContext {
  return {
    rules: layers,
    mode: { name: mode, holder: "person" },
    ...(readOnly ? { readOnly: { agent: "plan", holder: "code" as const } } : {}),
    cwd: WS,
    workspace: WS,
    home: HOME,
  };
}

const read = (path: string): Request => ({ action: "read", resource: path });

describe("an untrusted repository's rules only tighten", () => {
  it("a project ask does not lift the user's own deny of .env, so auto mode does not read it", () => {
    const global = rules("global", { read: { "**/.env": "deny" } }, "/u/bosun.json");
    const project = rules("project", { read: { "**/.env": "ask" } }, "/w/bosun.json", true);
    for (const mode of ["approve", "auto"] as const) {
      const answer = authorize(
        { requests: [read("/w/.env")] },
        context([defaultRules(), MODES[mode].preset, global, project], mode),
      );
      assert.equal(answer.answer, "deny", mode);
      assert.ok(
        answer.reasons.some((r) =>
          /left out: the repository's rule read "\*\*\/\.env" → ask is less strict/.test(r.detail ?? ""),
        ),
        JSON.stringify(answer.reasons),
      );
    }
  });

  it("a project rule that tightens applies, naming its file", () => {
    const project = rules(
      "project",
      { read: { "**/.env.example": "deny" }, shell: { "git push *": "deny" } },
      "/w/bosun.json",
      true,
    );
    const answer = authorize({ requests: [read("/w/.env.example")] }, context([defaultRules(), project]));
    assert.equal(answer.answer, "deny");
    assert.equal(answer.holder, "config");
    assert.equal(answer.reasons.find((r) => r.decisive)?.source, "/w/bosun.json");
  });

  it("the file is taken as a whole: its own last match for the request, against the layers below", () => {
    // "*": ask then "src/**": allow — for src/a.ts the file says allow, which equals the user's allow.
    const project = rules("project", { read: { "*": "ask", "src/**": "allow" } }, "/w/bosun.json", true);
    const ctx = context([defaultRules(), project]);
    assert.equal(authorize({ requests: [read("/w/src/a.ts")] }, ctx).answer, "allow");
    assert.equal(authorize({ requests: [read("/w/README.md")] }, ctx).answer, "ask");
  });

  it("an allow it writes lifts nothing, in its permission or its agents'", () => {
    const project = rules("project", { edit: "allow", shell: { "npm test *": "allow" } }, "/w/bosun.json", true);
    const agent = rules("agent", { edit: { "**": "allow" } }, "/w/bosun.json", true);
    const ctx = context([defaultRules(), MODES.approve.preset, project, agent]);
    assert.equal(authorize({ requests: [{ action: "edit", resource: "/w/a.ts" }] }, ctx).answer, "ask");
    assert.equal(
      authorize({ requests: [{ action: "shell", resource: "npm test", readOnly: false }] }, ctx).answer,
      "ask",
    );
  });

  it("later layers (the user's flags) still decide over it", () => {
    const project = rules("project", { read: { "**/.env": "deny" } }, "/w/bosun.json", true);
    const session = rules("session", { read: { "**/.env": "allow" } }, "--allow");
    assert.equal(
      authorize({ requests: [read("/w/.env")] }, context([defaultRules(), project, session])).answer,
      "allow",
    );
  });

  it("property: adding an untrusted project layer never loosens any answer", () => {
    const random = seededRandom(11);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const effects: Effect[] = ["allow", "ask", "deny"];
    const patterns: Record<string, string[]> = {
      read: ["*", "**/.env", "src/**", "**/*.md", "/etc/**", ".env*"],
      edit: ["*", "src/**", "**/.git/**", "*.md", "**/.envrc"],
      shell: ["*", "git *", "git status *", "rm *", "ls *", "npm test *"],
      external_directory: ["*", "/etc/**", "~/**"],
      web: ["*", "example.com"],
    };
    const requests: Request[] = [
      read("/w/.env"),
      read("/w/src/a.ts"),
      read("/w/README.md"),
      read("/etc/passwd"),
      read("*"),
      { action: "edit", resource: "/w/src/a.ts" },
      { action: "edit", resource: "/w/.git/config" },
      { action: "edit", resource: "/w/x.md" },
      { action: "edit", resource: "*" },
      { action: "shell", resource: "git status", readOnly: true },
      { action: "shell", resource: "git push origin", readOnly: false },
      { action: "shell", resource: "rm -rf x", readOnly: false },
      { action: "shell", resource: "ls -la", readOnly: true },
      { action: "shell", resource: "npm test", readOnly: false, unclassified: true },
      { action: "external_directory", resource: "/etc/passwd" },
      { action: "external_directory", resource: `${HOME}/x` },
      { action: "web", resource: "example.com" },
    ];
    const randomPermission = (): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const action of Object.keys(patterns)) {
        if (random() < 0.4) continue;
        if (random() < 0.3) {
          out[action] = pick(effects);
          continue;
        }
        const chosen = (patterns[action] as string[]).filter(() => random() < 0.4);
        // "*" first if at all: a catch-all after other patterns is refused as config.
        chosen.sort((a, b) => (a === "*" ? -1 : b === "*" ? 1 : 0));
        if (chosen.length > 0) out[action] = Object.fromEntries(chosen.map((p) => [p, pick(effects)]));
      }
      return out;
    };
    let tightened = 0;
    for (let round = 0; round < 400; round++) {
      const mode = pick(["approve", "smart", "auto", "chat"] as const);
      const readOnly = random() < 0.2;
      const global = rules("global", randomPermission(), "/u/bosun.json");
      const env = random() < 0.3 ? rules("env", randomPermission(), "BOSUN_CONFIG_CONTENT") : [];
      const agentGlobal = random() < 0.3 ? rules("agent", randomPermission(), "/u/bosun.json") : [];
      const session = random() < 0.3 ? rules("session", randomPermission(), "--allow") : [];
      const saved = random() < 0.3 ? rules("saved", randomPermission(), "saved") : [];
      const project = rules("project", randomPermission(), "/w/bosun.json", true);
      const nested = random() < 0.3 ? rules("project", randomPermission(), "/w/sub/bosun.json", true) : [];
      const agentProject = random() < 0.5 ? rules("agent", randomPermission(), "/w/bosun.json", true) : [];
      const base = [defaultRules(), MODES[mode].preset, global, env, agentGlobal, session, saved];
      const withProject = [...base, project, nested, agentProject];
      for (const request of requests) {
        const without = authorize({ requests: [request] }, context(base, mode, readOnly)).answer;
        const withIt = authorize({ requests: [request] }, context(withProject, mode, readOnly)).answer;
        assert.ok(
          STRICTNESS[withIt] >= STRICTNESS[without],
          `round ${round}, ${request.action}:${request.resource} in ${mode}: ${without} without the repository, ${withIt} with it\n` +
            JSON.stringify({ project, nested, agentProject, global }, null, 1),
        );
        if (STRICTNESS[withIt] > STRICTNESS[without]) tightened++;
      }
    }
    // The property is not vacuous: the repository's rules did tighten many answers.
    assert.ok(tightened > 100, `only ${tightened} answers tightened`);
  });
});

describe("a path not known before it runs, that a deny might cover", () => {
  const user = (permission: Record<string, unknown>) => rules("global", permission, "/u/bosun.json");
  const unknown = (action: "read" | "edit"): Request => ({ action, resource: "*" });

  it("a policy's deny denies it: it cannot be shown to stay within the policy", () => {
    const policy = rulesFromConfig(
      { read: { "~/.ssh/**": "deny" } },
      { layer: "policy", file: "/etc/bosun/policy.json" },
    );
    const answer = authorize({ requests: [unknown("read")] }, context([defaultRules(), MODES.auto.preset], "auto"));
    assert.notEqual(answer.answer, "deny", "without the policy it is not denied");
    const evaluated = evaluate([unknown("read")], [defaultRules()], { workspace: WS, home: HOME, policy });
    assert.equal(evaluated.effect, "deny");
    assert.match(evaluated.reasons[0]?.detail ?? "", /cannot be shown to stay within the policy/);
  });

  it("a deny no mask keeps (a read outside the workspace, any write): only a person may allow it, not auto mode", () => {
    for (const [action, permission] of [
      ["read", { read: { "*": "allow", "~/.ssh/**": "deny" } }],
      ["edit", { edit: { "*": "ask", "**/.git/**": "deny" } }],
    ] as const) {
      const answer = authorize(
        { requests: [unknown(action)] },
        context([defaultRules(), MODES.auto.preset, user(permission)], "auto"),
      );
      assert.equal(answer.answer, "ask", action);
      assert.match(answer.outcomes[0]?.personOnly ?? "", /might cover it/, action);
    }
  });

  it("a read deny of the workspace's files (masked when it runs) stays an ask auto mode may answer", () => {
    const answer = authorize(
      { requests: [unknown("read")] },
      context([defaultRules(), MODES.auto.preset, user({ read: { "*": "allow", "**/.env": "deny" } })], "auto"),
    );
    assert.equal(answer.answer, "allow");
    assert.equal(answer.outcomes[0]?.personOnly, undefined);
  });
});
