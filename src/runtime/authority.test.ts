import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decideAgent } from "../agents/select.js";
import { loadConfig } from "../config/load.js";
import { type AuthorityContext, authorize } from "../permission/gate/authorize.js";
import { delegateAuthority } from "../permission/rules/delegate.js";
import { buildAuthority } from "../permission/rules/layers.js";
import { SessionStore } from "../store/session-store.js";
import type { Face } from "../util/face.js";
import { gateDeps, overflowFolder, settleTrust } from "./authority.js";

/** A repository whose bosun.json would let a command run without asking, and the person says no. */
async function untrusted(face?: Face): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "bosun-trust-"));
  const home = join(root, "home");
  const repo = join(root, "repo");
  mkdirSync(home);
  mkdirSync(join(repo, ".git"), { recursive: true });
  writeFileSync(join(repo, "bosun.json"), JSON.stringify({ permission: { shell: { "touch *": "allow" } } }));
  const env = { BOSUN_HOME: home };
  const store = SessionStore.open(join(home, "bosun.db"));
  const warned: string[] = [];
  try {
    await settleTrust({
      config: loadConfig({ cwd: repo, env }),
      reload: (filterProject) => loadConfig({ cwd: repo, env, filterProject }),
      trustFlag: false,
      interactive: true,
      trustPrompt: { askTrust: async () => "no" },
      warn: (text) => warned.push(text),
      store,
      cwd: repo,
      signal: new AbortController().signal,
      ...(face ? { face } : {}),
    });
  } finally {
    store.close();
  }
  return warned;
}

describe("the warning when a repository's settings are not trusted (settleTrust)", () => {
  it("names --trust-project at the command line, and the session's own way in the interactive session", async () => {
    const [cli] = await untrusted();
    assert.match(cli ?? "", /would loosen \(allow shell:touch \*\): not trusted; --trust-project applies it$/);
    const [tui] = await untrusted("tui");
    assert.match(tui ?? "", /would loosen \(allow shell:touch \*\): not trusted; a new session \(\/new\) asks again$/);
    assert.doesNotMatch(tui ?? "", /--/);
  });
});

/**
 * The gate's dependencies put two things in force that the rule layers cannot know when they
 * are built: this session's overflow folder and the "always" the person answers during the run.
 * A delegate's authority (an intersection of rule sets) must get both in every set, as a plain
 * one does — else its calls ask where the parent's would not, silently.
 */
describe("gateDeps: the session's own folder and saved approvals, in every rule set", () => {
  const SESSION = "01JABCDEFGHJKMNPQRSTVWXYZ0";
  let root: string;
  let ws: string;
  let store: SessionStore;
  let saved: string | undefined;
  before(() => {
    saved = process.env.BOSUN_HOME;
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-gatedeps-")));
    process.env.BOSUN_HOME = join(root, "home");
    ws = join(root, "ws");
    mkdirSync(join(ws, ".git"), { recursive: true });
    writeFileSync(join(ws, "bosun.json"), "{}");
    store = SessionStore.open(join(root, "bosun.db"));
  });
  after(() => {
    store.close();
    if (saved === undefined) delete process.env.BOSUN_HOME;
    else process.env.BOSUN_HOME = saved;
    rmSync(root, { recursive: true, force: true });
  });

  function context(): AuthorityContext {
    const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    return buildAuthority({
      config,
      agent: decideAgent(undefined, config).agent,
      mode: { name: "approve", holder: "code" },
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
    });
  }
  const deps = (authority: AuthorityContext) =>
    gateDeps({
      prepared: { authority, policy: { rules: [], files: [] }, hooks: [], setupDecisions: [] },
      store,
      sessionId: SESSION,
      auto: false,
      interactive: false,
      sandbox: "off",
      record: () => {},
      signal: new AbortController().signal,
    });

  for (const [name, make] of [
    ["a run's own authority", () => context()],
    ["a delegate's", () => delegateAuthority(context(), context())],
  ] as const) {
    it(`${name}: reading this session's overflow files asks nothing, another session's asks`, () => {
      const gate = deps(make()).current();
      const outside = (file: string) =>
        authorize(
          {
            requests: [
              { action: "read", resource: file },
              { action: "external_directory", resource: file },
            ],
          },
          gate.authority,
        ).answer;
      assert.equal(outside(join(overflowFolder(SESSION), "call-1.txt")), "allow");
      assert.equal(outside(join(overflowFolder("01JABCDEFGHJKMNPQRSTVWXYZ1"), "call-1.txt")), "ask");
    });

    it(`${name}: the person's "always" is in force for the next call judged, by a new gate; the old one is untouched`, () => {
      const state = deps(make());
      const judging = state.current();
      const turn = state.forTurn({ signal: new AbortController().signal, record: () => {} });
      const edit = { requests: [{ action: "edit" as const, resource: join(ws, "src", `${name.length}.ts`) }] };
      assert.equal(authorize(edit, judging.authority).answer, "ask");
      turn.saveAlways([{ action: "edit", pattern: `src/${name.length}.ts` }], "edit");
      assert.equal(authorize(edit, state.current().authority).answer, "allow");
      assert.equal(authorize(edit, state.forTurn({ signal: turn.signal, record: () => {} }).authority).answer, "allow");
      // The gate a call was already judged with keeps its rules: nothing is pushed into it.
      assert.equal(authorize(edit, judging.authority).answer, "ask");
      assert.equal(authorize(edit, turn.authority).answer, "ask");
      assert.notEqual(state.current(), judging);
      assert.ok(Object.isFrozen(state.current()) && Object.isFrozen(state.current().authority));
    });

    it(`${name}: the read check follows the gate as things stand`, () => {
      const state = deps(make());
      const outside = join(root, `notes-${name.length}`);
      mkdirSync(outside, { recursive: true });
      writeFileSync(join(outside, "a.md"), "x");
      // Outside the workspace, nobody approved it: what a repository brings is refused.
      assert.equal(state.readCheck(join(outside, "a.md"), { origin: "repository" }).ok, false);
      state.current().saveAlways([{ action: "external_directory", pattern: `${outside}/**` }], "read");
      assert.equal(state.readCheck(join(outside, "a.md"), { origin: "repository" }).ok, true);
    });
  }
});
