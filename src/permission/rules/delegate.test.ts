import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decideAgent } from "../../agents/select.js";
import { loadConfig } from "../../config/load.js";
import type { ModeName } from "../../contracts/modes.js";
import type { Request } from "../../contracts/requests.js";
import { type AuthorityContext, authorize } from "../gate/authorize.js";
import { delegateAuthority } from "./delegate.js";
import { buildAuthority, ownFolderRule, withOwnFolder, withSavedApprovals } from "./layers.js";
import { ruleFromSpec, rulesFromConfig } from "./rules.js";

/**
 * There is no delegation yet, only its functions: a delegate's authority is what
 * `delegateAuthority` makes of the parent's and the delegate's own, judged by `authorize`.
 */
describe("delegateAuthority", () => {
  let root: string;
  let ws: string;
  let own: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-delegate-")));
    ws = join(root, "ws");
    own = join(root, "home", "data");
    mkdirSync(join(ws, ".git"), { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  function context(
    permission: unknown,
    options: { mode?: ModeName; ownData?: boolean; saved?: string[]; ownFolders?: string[] } = {},
  ): AuthorityContext {
    writeFileSync(join(ws, "bosun.json"), JSON.stringify({ permission }, null, 2));
    const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    return buildAuthority({
      config,
      agent: decideAgent(undefined, config).agent,
      mode: { name: options.mode ?? "approve", holder: "code" },
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
      projectTrusted: true,
      ...(options.ownData === false ? {} : { ownData: own }),
      ...(options.ownData === false ? {} : { ownConfig: join(root, "home") }),
      ...(options.saved
        ? { saved: options.saved.map((spec) => ruleFromSpec(spec, "allow", { layer: "saved", key: `saved ${spec}` })) }
        : {}),
      ...(options.ownFolders ? { ownFolders: options.ownFolders } : {}),
    });
  }
  const answer = (ctx: AuthorityContext, ...requests: Request[]) => authorize({ requests }, ctx);
  const edit = (resource: string): Request => ({ action: "edit", resource });

  describe("bosun's own data folder", () => {
    it("stays out of a delegate's reach, whatever the delegate's rules and mode say", () => {
      const parent = context({ edit: "allow" }, { mode: "auto" });
      const child = context({ edit: "allow", shell: "allow" }, { mode: "auto", ownData: false });
      const delegate = delegateAuthority(parent, child);
      const result = answer(delegate, edit(join(own, "bosun.db")));
      assert.equal(result.answer, "deny");
      assert.equal(result.holder, "code");
      assert.match(result.reasons[0]?.detail ?? "", /bosun's own data/);
      // Elsewhere the rules still decide.
      assert.equal(answer(delegate, edit(join(ws, "a.ts"))).answer, "allow");
    });

    it("is kept when only the delegate's context names it, and in a delegate of a delegate", () => {
      const parent = context({ edit: "allow" }, { mode: "auto", ownData: false });
      const child = context({ edit: "allow" }, { mode: "auto" });
      const first = delegateAuthority(parent, child);
      assert.equal(answer(first, edit(join(own, "x"))).answer, "deny");
      const second = delegateAuthority(first, context({ edit: "allow" }, { mode: "auto", ownData: false }));
      assert.equal(answer(second, edit(join(own, "overflow", "s", "out.txt"))).answer, "deny");
    });
  });

  describe("bosun's own config folder", () => {
    it("is no tool's to edit (the person's bosun.json, agents), in the parent and its delegates, in auto", () => {
      const parent = context({ edit: "allow" }, { mode: "auto" });
      const delegate = delegateAuthority(parent, context({ edit: "allow" }, { mode: "auto", ownData: false }));
      for (const ctx of [parent, delegate]) {
        for (const file of ["bosun.json", "agents/yolo.md", "recipes/r.yaml"]) {
          const result = answer(ctx, edit(join(root, "home", file)));
          assert.equal(result.answer, "deny", file);
          assert.equal(result.holder, "code");
          assert.match(result.reasons[0]?.detail ?? "", /bosun's own config/);
        }
      }
      assert.equal(answer(delegate, edit(join(ws, "a.ts"))).answer, "allow");
    });
  });

  describe("the layers every rule set shares", () => {
    it("gives the delegate's rule set bosun's own folders, as the parent's has them", () => {
      const overflow = join(own, "overflow", "S1");
      const parent = context({}, { ownFolders: [overflow] });
      const delegate = delegateAuthority(parent, context({}));
      const read = answer(
        delegate,
        { action: "read", resource: join(overflow, "out.txt") },
        { action: "external_directory", resource: join(overflow, "out.txt") },
      );
      assert.equal(read.answer, "allow", JSON.stringify(read.reasons));
      // Only that folder: another session's is still outside.
      const other = join(own, "overflow", "S2", "out.txt");
      assert.equal(answer(delegate, { action: "external_directory", resource: other }).answer, "ask");
    });

    it("lets a delegate use the person's saved approvals, never past a rule the delegate's own config writes", () => {
      const parent = context({}, { saved: ["edit:src/**"] });
      const plain = delegateAuthority(parent, context({}));
      assert.equal(answer(plain, edit(join(ws, "src", "a.ts"))).answer, "allow");
      assert.equal(answer(plain, edit(join(ws, "README.md"))).answer, "ask");
      // A rule someone wrote for the delegate is asked every time; a deny is never lifted.
      assert.equal(
        answer(delegateAuthority(parent, context({ edit: "ask" })), edit(join(ws, "src", "a.ts"))).answer,
        "ask",
      );
      const denied = answer(
        delegateAuthority(parent, context({ edit: { "src/**": "deny" } })),
        edit(join(ws, "src", "a.ts")),
      );
      assert.equal(denied.answer, "deny");
      assert.match(denied.reasons[0]?.detail ?? "", /^delegate: /);
    });

    it("puts a folder and an approval added during the run in force in every set, after its own rules", () => {
      // A delegate's set written by hand, with no built-in layer of its own: it gets the parent's.
      const bare = { ...context({}), rules: [rulesFromConfig({ edit: "ask" }, { layer: "agent" })] };
      const before = delegateAuthority(context({}), bare);
      const overflow = join(own, "overflow", "S3");
      const withFolder = { ...before, rules: withOwnFolder(before.rules, overflow) };
      const out = join(overflow, "out.txt");
      assert.equal(answer(withFolder, { action: "external_directory", resource: out }).answer, "allow");
      assert.notEqual(
        answer(before, { action: "external_directory", resource: out }).answer,
        "allow",
        "the authority it was made from is unchanged",
      );
      const saved = ruleFromSpec("edit:docs/**", "allow", { layer: "saved", key: "saved edit:docs/**" });
      const once = withSavedApprovals(withFolder.rules, [saved]);
      const delegate = { ...withFolder, rules: withSavedApprovals(once, [saved]) };
      // The delegate's own `edit: ask` is a rule someone wrote: still asked. The parent's set is allowed.
      const docs = answer(delegate, edit(join(ws, "docs", "a.md")));
      assert.equal(docs.answer, "ask");
      assert.match(docs.reasons[0]?.detail ?? "", /^delegate: ask/);
      const sets = Array.isArray(delegate.rules) ? [] : delegate.rules.sets;
      for (const set of sets) assert.equal(set.layers.flat().filter((r) => r === saved).length, 1, set.label);
    });

    it("gives the delegate's own saved approvals no power beyond the parent", () => {
      const parent = context({});
      const child = context({}, { saved: ["edit:src/**"] });
      assert.equal(answer(delegateAuthority(parent, child), edit(join(ws, "src", "a.ts"))).answer, "ask");
    });

    it("adds nothing twice when the delegate's context was built with the same layers", () => {
      const overflow = join(own, "overflow", "S1");
      const parent = context({}, { saved: ["edit:src/**"], ownFolders: [overflow] });
      const child = context({}, { saved: ["edit:src/**"], ownFolders: [overflow] });
      const delegate = delegateAuthority(parent, child);
      const sets = Array.isArray(delegate.rules) ? [] : delegate.rules.sets;
      const count = (layers: (typeof sets)[number]["layers"], key: string) =>
        layers.flat().filter((r) => r.source.key === key).length;
      assert.equal(count(sets[1]?.layers ?? [], "saved edit:src/**"), 1);
      assert.equal(count(sets[1]?.layers ?? [], ownFolderRule(overflow).source.key), 1);
    });
  });

  describe("what a rule set's answer carries into the intersection", () => {
    it("a file that makes programs run later: a catch-all allow in any set asks", () => {
      // The parent names .git/config; the delegate allows every edit. Alone, the delegate would ask.
      const parent = context({ edit: { "*": "ask", ".git/config": "allow" } });
      const child = context({ edit: "allow" });
      assert.equal(answer(child, edit(join(ws, ".git", "config"))).answer, "ask");
      assert.equal(answer(parent, edit(join(ws, ".git", "config"))).answer, "allow");
      const both = answer(delegateAuthority(parent, child), edit(join(ws, ".git", "config")));
      assert.equal(both.answer, "ask");
      assert.match(both.reasons[0]?.detail ?? "", /makes programs run later/);
    });

    it("an ask only a person may answer stays so in auto mode, whichever set gave it", () => {
      // An echo to a path not known before it runs: the delegate's deny of ~/.ssh might cover it.
      const unknown: Request = { action: "edit", resource: "*" };
      const parent = context({ edit: "ask" }, { mode: "auto" });
      const child = context({ edit: { "*": "ask", "~/.ssh/**": "deny" } }, { mode: "auto" });
      assert.equal(answer(parent, unknown).answer, "allow");
      assert.equal(answer(child, unknown).answer, "ask");
      const both = answer(delegateAuthority(parent, child), unknown);
      assert.equal(both.answer, "ask");
      assert.match(both.outcomes[0]?.personOnly ?? "", /might cover it/);
    });
  });
});
