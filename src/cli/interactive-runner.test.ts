import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import type { Decision } from "../contracts/decisions.js";
import type { CustomCommand } from "../input/custom-commands.js";
import { NoModelError } from "../model/select.js";
import type { Runtime, SessionOptions } from "../runtime/open.js";
import { EV } from "../session/events.js";
import { forkSession } from "../session/open.js";
import { SessionStore } from "../store/session-store.js";
import { commandChoice, interactiveRunner } from "./interactive-runner.js";

const config = configFrom({ agent: { docs: { read_only: true }, writer: {} } });
const session = (agent: string) => ({ agent, model: { ref: "scripted/test-model" }, config }) as unknown as Runtime;
const command = (front: Partial<CustomCommand>): CustomCommand => ({
  name: "review",
  template: "Review $ARGUMENTS",
  file: "/w/.bosun/commands/review.md",
  scope: "project",
  ...front,
});

const recorded = (decision: Decision) => [{ ...decision, seq: 1, at: "" }];

describe("a custom command's agent and model (commandChoice)", () => {
  it("asks for nothing when the front matter names none, or what the session already has", () => {
    assert.equal(commandChoice(command({}), session("build")), undefined);
    assert.equal(commandChoice(command({ agent: "build", model: "scripted/test-model" }), session("build")), undefined);
  });

  it("the person's own command names the agent and model that differ, with its file", () => {
    assert.deepEqual(
      commandChoice(command({ agent: "plan", model: "scripted/other", scope: "global" }), session("build")),
      {
        notes: [],
        command: { name: "review", file: "/w/.bosun/commands/review.md", agent: "plan", model: "scripted/other" },
      },
    );
    assert.deepEqual(commandChoice(command({ agent: "writer", scope: "global" }), session("build")), {
      notes: [],
      command: { name: "review", file: "/w/.bosun/commands/review.md", agent: "writer" },
    });
  });

  it("a repository's command may switch to a read-only agent, but its model is left out, and that is recorded", () => {
    const choice = commandChoice(command({ agent: "docs", model: "scripted/cheap" }), session("build"));
    assert.deepEqual(choice?.command, { name: "review", file: "/w/.bosun/commands/review.md", agent: "docs" });
    const note = choice?.notes[0] as Decision;
    expectDecision(recorded(note), "model.select", "code", "scripted/test-model");
    assert.equal(note.reasons.find((r) => r.decisive)?.rule, "a repository's command does not choose the model");
    assert.deepEqual(commandChoice(command({ model: "scripted/cheap" }), session("build"))?.command, undefined);
  });

  it("refuses to lift a read-only agent (built-in or configured) to one that may change files, and records why", () => {
    for (const [from, to] of [
      ["plan", "build"],
      ["docs", "writer"],
    ] as const) {
      const refused = commandChoice(command({ agent: to, scope: "global" }), session(from))?.refused;
      assert.ok(refused, `${from} → ${to}`);
      assert.match(refused.message, new RegExp(`agent ${from} is read-only; switch with /agent ${to} first`));
      expectDecision(recorded(refused.decision), "agent.select", "code", from);
      assert.deepEqual(refused.decision.subject, { command: "review" });
    }
  });

  it("lets a repository's command switch only to a read-only agent", () => {
    const refused = commandChoice(command({ agent: "writer" }), session("build"))?.refused;
    assert.ok(refused);
    assert.match(refused.message, /comes from this repository and asks for agent writer/);
    expectDecision(recorded(refused.decision), "agent.select", "code", "build");
    assert.equal(
      refused.decision.reasons.find((r) => r.decisive)?.rule,
      "a repository's command switches only to a read-only agent",
    );
  });
});

describe("the interactive session with no model configured (interactiveRunner)", () => {
  const noModel = () => Promise.reject(new NoModelError("no model is configured and no provider has credentials."));
  const start = (openWith: (options: SessionOptions) => Promise<Runtime>) => {
    const first = noModel();
    first.catch(() => {});
    return interactiveRunner({
      cwd: "/w",
      options: {},
      openWith,
      first,
      customs: { commands: [], shadowed: [], skipped: [] },
      signal: new AbortController().signal,
    }).runner;
  };

  it("stays open: ready settles, every turn says what to set up, and nothing else pretends to run", async () => {
    const runner = start(noModel);
    await runner.ready;
    const setup = runner.setup?.() ?? "";
    assert.match(setup, /No model is configured[\s\S]*ANTHROPIC_API_KEY[\s\S]*bosun doctor/);
    assert.deepEqual(runner.status(), { model: "no model", agent: "build", mode: "—" });
    const outcome = await runner.turn("fix it", {
      emit: () => {},
      prompt: { ask: async () => ({ kind: "cancel" }) },
      signal: new AbortController().signal,
      steering: () => [],
    });
    assert.deepEqual(outcome, { status: "failed", steps: 0, denied: 0, message: setup });
    assert.equal(await runner.command?.("mode", "auto"), setup);
    assert.equal(await runner.compact(), setup);
    assert.deepEqual(runner.choices?.("model"), []);
    await runner.close();
  });

  it("/model with a model opens the session once it can be used; until then it says why not", async () => {
    const tried: SessionOptions[] = [];
    let works = false;
    const live = {
      session: { id: "ses_0123456789ab" },
      model: { ref: "local/coder" },
      agent: "build",
      mode: "approve",
      close: async () => {},
    } as unknown as Runtime;
    const runner = start(async (options) => {
      tried.push(options);
      if (!works) throw new Error("provider local has no baseURL");
      return live;
    });
    await runner.ready;
    assert.equal(await runner.command?.("model", "local/coder"), "not opened: provider local has no baseURL");
    assert.ok(runner.setup?.(), "still nothing to run");
    works = true;
    assert.equal(await runner.command?.("model", "local/coder"), "session ses_012345 · local/coder · build · approve");
    assert.deepEqual(
      tried.map((o) => o.model),
      ["local/coder", "local/coder"],
    );
    assert.equal(runner.setup?.(), undefined);
  });
});

describe("the past the TUI draws (takePast)", () => {
  it("gives a session's past once, not again when it is reopened, and the other's after /resume (a fork says so)", async () => {
    const root = mkdtempSync(join(tmpdir(), "bosun-runner-past-"));
    const store = SessionStore.open(join(root, "bosun.db"));
    try {
      const first = store.create({ directory: root, title: "first one" });
      store.append(first.id, EV.user, { text: "hello there" });
      store.append(first.id, EV.turnEnded, { status: "done", steps: 1 });
      const fork = forkSession(store, first.id, root);
      const opened: string[] = [];
      const live = (id: string) =>
        ({
          store,
          session: store.get(id),
          model: { ref: "scripted/test-model" },
          agent: "build",
          mode: "approve",
          close: async () => {},
        }) as unknown as Runtime;
      const { runner } = interactiveRunner({
        cwd: root,
        options: { session: first.id },
        openWith: async (options) => {
          opened.push(options.session ?? "new");
          return live(options.session ?? store.create({ directory: root }).id);
        },
        first: Promise.resolve(live(first.id)),
        customs: { commands: [], shadowed: [], skipped: [] },
        signal: new AbortController().signal,
      });
      await runner.ready;
      assert.deepEqual(runner.takePast?.(), {
        id: first.id,
        title: "first one",
        items: [{ kind: "user", text: "hello there" }],
      });
      assert.equal(runner.takePast?.(), undefined, "once");
      await runner.command?.("mode", "auto");
      assert.equal(runner.takePast?.(), undefined, "the same session reopened");
      // A new session (nothing to draw, and the app does not ask), then back: the first's past again.
      await runner.command?.("new", "");
      await runner.command?.("resume", first.id);
      assert.equal(runner.takePast?.()?.id, first.id);
      await runner.command?.("resume", fork.id);
      assert.deepEqual(opened, [first.id, "new", first.id, fork.id]);
      assert.deepEqual(runner.takePast?.(), {
        id: fork.id,
        title: "first one (fork)",
        forkedFrom: first.id,
        items: [{ kind: "user", text: "hello there" }],
      });
    } finally {
      store.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("/goal (interactiveRunner)", () => {
  it("sets the person's goal for the turns that follow, shows it, keeps it through a switch, and /goal off clears it", async () => {
    const goals: unknown[] = [];
    const opened: SessionOptions[] = [];
    const live = {
      session: { id: "ses_0123456789ab" },
      model: { ref: "scripted/test-model" },
      agent: "build",
      mode: "approve",
      config: configFrom({ goal: { max_steps: 7 } }),
      turn: async (_message: unknown, io: { goal?: unknown }) => {
        goals.push(io.goal);
        return { status: "done", steps: 1, denied: 0 };
      },
      close: async () => {},
    } as unknown as Runtime;
    const { runner } = interactiveRunner({
      cwd: "/w",
      options: {},
      openWith: async (options) => {
        opened.push(options);
        return live;
      },
      first: Promise.resolve(live),
      customs: { commands: [], shadowed: [], skipped: [] },
      signal: new AbortController().signal,
    });
    await runner.ready;
    const io = {
      emit: () => {},
      prompt: { ask: async () => ({ kind: "cancel" as const }) },
      signal: new AbortController().signal,
      steering: () => [],
    };
    assert.match((await runner.command?.("goal", "")) ?? "", /^no goal: \/goal <command>/);
    assert.equal(await runner.command?.("goal", "off"), "no goal to clear");
    assert.match((await runner.command?.("goal", "npm test")) ?? "", /goal set: .*`npm test` exits 0 \(within 7 steps/);
    await runner.turn("fix it", io);
    assert.deepEqual(goals.at(-1), { source: { kind: "person", surface: "slash" }, commands: ["npm test"] });
    assert.match((await runner.command?.("goal", "")) ?? "", /^goal: until `npm test` exits 0; \/goal off clears it$/);
    await runner.command?.("mode", "auto");
    assert.deepEqual(opened.at(-1)?.goal?.commands, ["npm test"], "a switch keeps the goal");
    assert.match((await runner.command?.("goal", "off")) ?? "", /^goal cleared/);
    await runner.turn("go on", io);
    assert.equal(goals.at(-1), null, "no goal: the turn is told so, over what the session was opened with");
  });
});
