import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { RecordedDecision } from "../../src/contracts/decisions.js";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { type ModelServer, startModelServer } from "../support/model-server.js";
import { type Scenario, startScenario, waitFor } from "../support/scenario.js";

/**
 * Delegation through the task tool, end to end: the real binary, the scripted model server, a
 * temp repository. Each delegate is a session of its own under its parent, with its own ledger;
 * it never holds more authority than the parent; its failures come back as failures.
 */

interface Stored {
  id: string;
  parentId: string | null;
  decisions: RecordedDecision[];
  events: Array<{ type: string; data: Record<string, unknown> }>;
}

/** Every session of the scenario's store, oldest first. */
function sessions(s: Scenario): Stored[] {
  const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
  try {
    return store
      .list()
      .reverse()
      .map((session) => ({
        id: session.id,
        parentId: session.parentId,
        decisions: readDecisions(store, session.id),
        events: store.events(session.id).map((e) => ({ type: e.type, data: e.data as Record<string, unknown> })),
      }));
  } finally {
    store.close();
  }
}

function childrenOf(all: Stored[], parent: Stored): Stored[] {
  return all.filter((session) => session.parentId === parent.id);
}

const NOTES_SERVER = fileURLToPath(new URL("../support/mcp-notes-server.mjs", import.meta.url));

const task = (agent: string, prompt: string, extra: Record<string, unknown> = {}, id?: string) => ({
  name: "task",
  ...(id ? { id } : {}),
  arguments: { agent, prompt, ...extra },
});

describe("delegation: the task tool", { concurrency: true }, () => {
  it("a parent hands work to a read-only reviewer and a builder; each is a session of its own", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "ship the feature" },
            reply: {
              toolCalls: [
                task("plan", "REVIEW: read a.txt and report", { description: "review a.txt" }, "t1"),
                task("builder", "BUILD: write b.txt", { description: "write b.txt" }, "t2"),
              ],
            },
          },
          { match: { lastMessage: "REVIEW:" }, reply: { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] } },
          {
            match: { lastMessage: "BUILD:" },
            reply: { toolCalls: [{ name: "write", arguments: { path: "b.txt", content: "built\n" } }] },
          },
          { match: { lastMessage: "original text" }, reply: { text: "REVIEWED: a.txt holds the original text" } },
          { match: { lastMessage: "/Created|Wrote|b\\.txt/" }, reply: { text: "BUILT: b.txt written" } },
          { match: { anyMessage: "BUILT: b.txt written" }, reply: { text: "All done." } },
        ],
      },
      {
        global: {
          mode: "auto",
          agent: { builder: { description: "writes files", model: "scripted/builder-model" } },
        },
      },
    );
    try {
      s.ws.write("a.txt", "the original text\n");
      const result = await s.run(["run", "ship the feature"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "b.txt"), "utf8"), "built\n");
      assert.match(result.stderr, /↳ plan \(review a\.txt\) started/);
      assert.match(result.stderr, /\[builder\] → write/);
      const all = sessions(s);
      const parent = all.find((x) => x.parentId === null) as Stored;
      const kids = childrenOf(all, parent);
      assert.equal(kids.length, 2);
      const reviewer = kids.find((k) => k.decisions.some((d) => d.seat === "agent.select" && d.answer === "plan"));
      const builder = kids.find((k) => k.decisions.some((d) => d.seat === "agent.select" && d.answer === "builder"));
      assert.ok(reviewer && builder);
      // Who decided: the model chose the agent; code cut the authority; the model came from config or the parent.
      expectDecision(reviewer.decisions, "agent.select", "model", "plan");
      const cut = expectDecision(reviewer.decisions, "delegate.authority", "code");
      assert.match(String(cut.answer), /read-only/);
      expectDecision(reviewer.decisions, "delegate.model", "code", "scripted/test-model");
      expectDecision(builder.decisions, "delegate.model", "config", "scripted/builder-model");
      const builderCut = expectDecision(builder.decisions, "delegate.authority", "code");
      assert.doesNotMatch(String(builderCut.answer), /read-only/);
      assert.match(String(builderCut.answer), /^auto/);
      // Each delegate's session says who started it and from which call.
      const created = reviewer.events.find((e) => e.type === "session.created")?.data;
      assert.deepEqual(created?.delegate, { agent: "plan", description: "review a.txt", call: "t1", depth: 1 });
      // The parent's ledger judged the delegation itself: delegate:<agent>.
      const judged = parent.decisions.filter((d) => d.seat === "call.permission" && d.subject?.call === "t2");
      assert.match(JSON.stringify(judged), /delegate:builder/);
      // The builder ran on its own model.
      assert.ok(s.server.requests.some((r) => r.normalized?.model === "builder-model"));
      // The reviewer's answer reached the parent's model as the task's result, with its task_id.
      const back = s.server.requests.find((r) =>
        r.normalized?.messages.some((m) => m.text.includes("REVIEWED: a.txt holds the original text")),
      );
      assert.ok(back, "the parent's model saw the reviewer's answer");
      assert.match(
        back.normalized?.messages.map((m) => m.text).join("\n") ?? "",
        new RegExp(`task_id: ${reviewer.id}`),
      );
    } finally {
      await s.close();
    }
  });

  it("parallel delegates wait for a slot past delegate.max_parallel, and the wait is on record", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "fan out" },
            reply: {
              toolCalls: [
                task("plan", "ONE: answer", {}, "p1"),
                task("plan", "TWO: answer", {}, "p2"),
                task("plan", "THREE: answer", {}, "p3"),
              ],
            },
          },
          { match: { lastMessage: "ONE:" }, reply: { text: "one done", delayMs: 300 } },
          { match: { lastMessage: "TWO:" }, reply: { text: "two done", delayMs: 300 } },
          { match: { lastMessage: "THREE:" }, reply: { text: "three done", delayMs: 300 } },
          { reply: { text: "fanned in" } },
        ],
      },
      { global: { delegate: { max_parallel: 2 } } },
    );
    try {
      const result = await s.run(["run", "--format", "json", "fan out"]);
      assert.equal(result.code, 0, result.stderr);
      const all = sessions(s);
      const parent = all.find((x) => x.parentId === null) as Stored;
      assert.equal(childrenOf(all, parent).length, 3);
      const wait = expectDecision(parent.decisions, "delegate.limit", "config", "wait");
      assert.match(wait.reasons[0]?.detail ?? "", /2 delegates running, at most 2/);
      const states = s
        .events(result)
        .filter((e) => e.type === "delegate")
        .map((e) => e.state);
      assert.ok(states.includes("waiting"), `states: ${states.join(", ")}`);
      assert.equal(states.filter((state) => state === "done").length, 3);
    } finally {
      await s.close();
    }
  });

  it("depth: a delegate at delegate.max_depth is not given the task tool; a deeper limit lets it delegate", async () => {
    const script = {
      rules: [
        { match: { lastMessage: "go deep" }, reply: { toolCalls: [task("plan", "LEVEL1: go on")] } },
        {
          match: { lastMessage: "LEVEL1:" },
          reply: { toolCalls: [{ ...task("plan", "LEVEL2: answer"), unadvertised: true }] },
        },
        { match: { lastMessage: "LEVEL2:" }, reply: { text: "level two answered" } },
        { match: { lastMessage: "level two answered" }, reply: { text: "level one relays: two answered" } },
        {
          match: { lastMessage: "/No such tool|not a tool|unknown tool/i" },
          reply: { text: "level one could not delegate" },
        },
        { reply: { text: "top done" } },
      ],
    };
    const shallow = await startScenario(script);
    const deep = await startScenario(script, { global: { delegate: { max_depth: 2 } } });
    try {
      const one = await shallow.run(["run", "go deep"]);
      assert.equal(one.code, 0, one.stderr);
      let all = sessions(shallow);
      assert.equal(all.length, 2, "no grandchild was started");
      const child = all.find((x) => x.parentId !== null) as Stored;
      const cut = expectDecision(child.decisions, "delegate.authority", "code");
      assert.match(JSON.stringify(cut.reasons), /task left out: the depth allows no further delegate/);
      const offered = child.decisions.find((d) => d.seat === "context.tools");
      assert.ok(Array.isArray(offered?.answer) && !(offered.answer as string[]).includes("task"));

      const two = await deep.run(["run", "go deep"]);
      assert.equal(two.code, 0, two.stderr);
      all = sessions(deep);
      assert.equal(all.length, 3, "the child started a grandchild");
      const grandchild = all.find((x) => all.some((p) => p.id === x.parentId && p.parentId !== null)) as Stored;
      assert.ok(grandchild);
      const created = grandchild.events.find((e) => e.type === "session.created")?.data;
      assert.equal((created?.delegate as { depth?: number } | undefined)?.depth, 2);
    } finally {
      await shallow.close();
      await deep.close();
    }
  });

  it("a failed delegate is reported as failed, never as an answer", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "try it" }, reply: { toolCalls: [task("plan", "BROKEN: answer")] } },
        { match: { lastMessage: "BROKEN:" }, reply: { error: { status: 400 } } },
        { reply: { text: "noted the failure" } },
      ],
    });
    try {
      const result = await s.run(["run", "try it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /✗ task plan: failed/);
      const back =
        s.server.requests
          .at(-1)
          ?.normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(back, /The plan delegate failed: the model request failed/);
    } finally {
      await s.close();
    }
  });

  it("a delegate's ask with nobody there is denied, and the delegate says it was", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "make a file" }, reply: { toolCalls: [task("build", "TOUCH: create x.txt")] } },
        {
          match: { lastMessage: "TOUCH:" },
          reply: { toolCalls: [{ name: "shell", arguments: { command: "touch x.txt" } }] },
        },
        { match: { lastMessage: "/denied|approve/i" }, reply: { text: "could not create it" } },
        { reply: { text: "the delegate was denied" } },
      ],
    });
    try {
      const result = await s.run(["run", "make a file"]);
      assert.equal(existsSync(join(s.ws.dir, "x.txt")), false);
      assert.match(result.stderr, /\[build\] !/);
      const all = sessions(s);
      const child = all.find((x) => x.parentId !== null) as Stored;
      expectDecision(child.decisions, "call.approval", "code", "deny");
      const back =
        s.server.requests
          .at(-1)
          ?.normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(back, /1 of its calls were denied/);
    } finally {
      await s.close();
    }
  });

  it("a background delegate's result arrives as a notice, and the turn waits for it", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "start it" },
          reply: { toolCalls: [task("plan", "SLOW: answer", { background: true, description: "slow one" })] },
        },
        { match: { lastMessage: "SLOW:" }, reply: { text: "slow answer ready", delayMs: 500 } },
        { match: { lastMessage: "in the background" }, reply: { text: "I will wait for it." } },
        { match: { lastMessage: "slow answer ready" }, reply: { text: "Got it: slow answer ready." } },
      ],
    });
    try {
      const result = await s.run(["run", "start it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Got it: slow answer ready\./);
      const parent = sessions(s).find((x) => x.parentId === null) as Stored;
      expectDecision(parent.decisions, "turn.done", "code", "wait");
      const notice = parent.events.find(
        (e) => e.type === "message.notice" && String(e.data.text).includes("Background task"),
      );
      assert.ok(notice, "the result came as a notice");
      assert.match(String(notice.data.text), /\(slow one\), agent plan, finished/);
    } finally {
      await s.close();
    }
  });

  it("task_id resumes the same delegate: its session goes on with a second turn", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "first part" }, reply: { toolCalls: [task("plan", "PART1: answer")] } },
        { match: { lastMessage: "PART1:" }, reply: { text: "part one answered" } },
        { reply: { text: "first done" } },
      ],
    });
    let second: ModelServer | undefined;
    try {
      const first = await s.run(["run", "first part"]);
      assert.equal(first.code, 0, first.stderr);
      const child = sessions(s).find((x) => x.parentId !== null) as Stored;
      second = await startModelServer({
        rules: [
          {
            match: { lastMessage: "second part" },
            reply: { toolCalls: [task("plan", "PART2: go on", { task_id: child.id })] },
          },
          { match: { lastMessage: "PART2:" }, reply: { text: "part two answered, remembering part one" } },
          {
            match: { lastMessage: "bogus resume" },
            reply: { toolCalls: [task("plan", "PART3: go on", { task_id: "01ZZZZZZZZZZZZZZZZZZZZZZZZ" })] },
          },
          {
            match: { lastMessage: "resume as build" },
            reply: { toolCalls: [task("build", "PART4: go on", { task_id: child.id })] },
          },
          { reply: { text: "second done" } },
        ],
      });
      s.setUserConfig({ ...second.configFor("openai-compatible") });
      const resumed = await s.run(["run", "--continue", "second part"]);
      assert.equal(resumed.code, 0, resumed.stderr);
      let all = sessions(s);
      assert.equal(all.length, 2, "no new delegate session");
      const again = all.find((x) => x.id === child.id) as Stored;
      assert.equal(again.events.filter((e) => e.type === "message.user").length, 2);
      expectDecision(again.decisions, "agent.select", "model", "plan");
      // The child's request carried its first turn: the same conversation goes on.
      const request = second.requests.find((r) => r.normalized?.messages.at(-1)?.text.includes("PART2:"));
      assert.match(request?.normalized?.messages.map((m) => m.text).join("\n") ?? "", /part one answered/);
      // A task_id of no delegate of this session, or of another agent, is refused by name.
      const bogus = await s.run(["run", "--continue", "bogus resume"]);
      assert.equal(bogus.code, 0, bogus.stderr);
      assert.match(bogus.stderr, /✗ task: not started/);
      const other = await s.run(["run", "--continue", "resume as build"]);
      assert.equal(other.code, 0, other.stderr);
      assert.match(
        second.requests
          .at(-1)
          ?.normalized?.messages.map((m) => m.text)
          .join("\n") ?? "",
        /was started with agent plan, not build/,
      );
      all = sessions(s);
      assert.equal(all.length, 2);
    } finally {
      await second?.close();
      await s.close();
    }
  });

  it("run as the session's own agent, an agent's tools narrow the session's and its max_steps is the turn's budget", async () => {
    const s = await startScenario(
      { rules: [{ reply: { toolCalls: [{ name: "glob", arguments: { pattern: "*" } }] } }] },
      { global: { agent: { scout: { tools: ["read", "glob"], max_steps: 2 } } } },
    );
    try {
      const limited = await s.run(["run", "--agent", "scout", "look"]);
      assert.equal(limited.code, 3, limited.stderr);
      assert.deepEqual(s.server.request(1).normalized?.tools, ["read", "glob"]);
      assert.match(limited.stderr, /limit of 2 steps \(agent\.scout\.max_steps\)/);
      const { decisions } = s.latest();
      const chosen = expectDecision(decisions, "agent.select", "person", "scout");
      assert.match(JSON.stringify(chosen.reasons), /read, glob: only these of the session's tools are offered/);
      // The person's --max-steps outranks the agent's budget.
      const flagged = await s.run(["run", "--agent", "scout", "--max-steps", "1", "look again"]);
      assert.match(flagged.stderr, /limit of 1 steps \(max_steps\)/);
    } finally {
      await s.close();
    }
  });

  it("a plan session's delegate claiming auto is read-only: edit, write, a redirection and an unannotated MCP tool change nothing", async () => {
    const calls = [
      {
        id: "e",
        name: "edit",
        arguments: { path: "a.txt", old_string: "original", new_string: "pwned" },
        unadvertised: true,
      },
      { id: "w", name: "write", arguments: { path: "new.txt", content: "pwned" }, unadvertised: true },
      { id: "r", name: "shell", arguments: { command: "echo pwned > redirected.txt" } },
      { id: "m", name: "mcp__notes__notes_write", arguments: { name: "todo", text: "pwned" }, unadvertised: true },
    ];
    const s = await startScenario(
      {
        rules: [
          { match: { lastMessage: "plan it" }, reply: { toolCalls: [task("builder", "WRITE: change things")] } },
          { match: { lastMessage: "WRITE:" }, reply: { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] } },
          { match: { lastMessage: "original" }, reply: { toolCalls: calls } },
          { match: { lastMessage: "/Denied/" }, reply: { text: "everything was refused" } },
          { reply: { text: "the plan stands" } },
        ],
      },
      {
        global: {
          mcp: { notes: { command: process.execPath, args: [NOTES_SERVER] } },
          agent: { builder: { mode: "auto", read_only: false } },
        },
      },
    );
    try {
      s.ws.write("a.txt", "original\n");
      const result = await s.run(["run", "--agent", "plan", "plan it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "a.txt"), "utf8"), "original\n");
      for (const made of ["new.txt", "redirected.txt", "todo.note"])
        assert.equal(existsSync(join(s.ws.dir, made)), false, made);
      const child = sessions(s).find((x) => x.parentId !== null) as Stored;
      const cut = expectDecision(child.decisions, "delegate.authority", "code");
      assert.match(JSON.stringify(cut.reasons), /inherited from plan, which is read-only/);
      for (const id of ["e", "w", "r", "m"]) {
        const judged = child.decisions.find((d) => d.seat === "call.permission" && d.subject?.call === id);
        assert.equal(judged?.answer, "deny", `call ${id}`);
        assert.equal(judged?.holder, "code", `call ${id}`);
        assert.ok(!child.events.some((e) => e.type === "call.started" && e.data.id === id), `call ${id} never started`);
      }
    } finally {
      await s.close();
    }
  });

  it("Ctrl-C cancels the running delegates with the parent, on record in both sessions", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "long work" },
          reply: {
            toolCalls: [task("plan", "LONG: think", {}, "fg"), task("plan", "BG: think", { background: true }, "bg")],
          },
        },
        { match: { lastMessage: "LONG:" }, reply: { text: "never", delayMs: 30_000 } },
        { match: { lastMessage: "BG:" }, reply: { text: "never", delayMs: 30_000 } },
        { reply: { text: "unreachable" } },
      ],
    });
    try {
      const { child, result } = s.spawn(["run", "long work"]);
      // Both delegates are under way: their sessions hold their prompts.
      await waitFor(() => {
        const kids = sessions(s).filter((x) => x.parentId !== null);
        return kids.length === 2 && kids.every((k) => k.events.some((e) => e.type === "message.user"))
          ? true
          : undefined;
      }, 60_000);
      const started = Date.now();
      child.kill("SIGINT");
      const cancelled = await result;
      assert.equal(cancelled.code, 130, cancelled.stderr);
      assert.ok(Date.now() - started < 5000, "cancel is prompt");
      const all = sessions(s);
      const kids = all.filter((x) => x.parentId !== null);
      assert.equal(kids.length, 2);
      for (const kid of kids) {
        const ended = kid.events.filter((e) => e.type === "turn.ended").at(-1);
        assert.equal(ended?.data.status, "cancelled", `delegate ${kid.id} ended ${JSON.stringify(ended?.data)}`);
      }
      const parent = all.find((x) => x.parentId === null) as Stored;
      assert.equal(parent.events.filter((e) => e.type === "turn.ended").at(-1)?.data.status, "cancelled");
    } finally {
      await s.close();
    }
  });

  it("a repository's agent claiming auto and allowing everything gets neither without trust", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { lastMessage: "delegate it" }, reply: { toolCalls: [task("sneaky", "SNEAK: touch it")] } },
          {
            match: { lastMessage: "SNEAK:" },
            reply: { toolCalls: [{ name: "shell", arguments: { command: "touch sneaky.txt" } }] },
          },
          { match: { lastMessage: "/denied|approve/i" }, reply: { text: "was stopped" } },
          { reply: { text: "finished" } },
        ],
      },
      { config: { agent: { sneaky: { mode: "auto", permission: { shell: { "*": "allow" } } } } } },
    );
    try {
      const result = await s.run(["run", "delegate it"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "sneaky.txt")), false);
      const child = sessions(s).find((x) => x.parentId !== null) as Stored;
      const cut = expectDecision(child.decisions, "delegate.authority", "code");
      assert.match(String(cut.answer), /^approve/);
      expectDecision(child.decisions, "call.approval", "code", "deny");
    } finally {
      await s.close();
    }
  });

  it("tokens and cost of delegates roll up into the parent's totals", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "count" },
          reply: { toolCalls: [task("plan", "TOKENS: answer")], usage: { input: 100, output: 10 } },
        },
        { match: { lastMessage: "TOKENS:" }, reply: { text: "child answer", usage: { input: 1000, output: 100 } } },
        { reply: { text: "parent done", usage: { input: 200, output: 20 } } },
      ],
    });
    try {
      const { provider } = s.server.configFor("openai-compatible");
      s.setUserConfig({
        provider: { scripted: { ...provider.scripted, models: { "test-model": { price: { input: 2, output: 10 } } } } },
      });
      const result = await s.run(["run", "--format", "json", "count"]);
      assert.equal(result.code, 0, result.stderr);
      const done = s.events(result).find((e) => e.type === "done") as {
        usage?: { input: number; output: number };
        cost?: number;
      };
      assert.equal(done.usage?.input, 1300);
      assert.equal(done.usage?.output, 130);
      // $2 per million in, $10 per million out.
      assert.ok(Math.abs((done.cost ?? 0) - (1300 * 2 + 130 * 10) / 1e6) < 1e-9, `cost ${done.cost}`);
    } finally {
      await s.close();
    }
  });

  it("an agent's tools narrow the delegate's, and its max_steps is its budget", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { lastMessage: "narrow" }, reply: { toolCalls: [task("scout", "SCOUT: look around")] } },
          { match: { lastMessage: "SCOUT:" }, reply: { toolCalls: [{ name: "glob", arguments: { pattern: "*" } }] } },
          { match: { lastMessage: "/stopped at its step budget/" }, reply: { text: "the scout ran out of steps" } },
          { reply: { text: "scout again", toolCalls: [{ name: "glob", arguments: { pattern: "*.json" } }] } },
        ],
      },
      { global: { agent: { scout: { tools: ["read", "glob", "write", "nonexistent_*"], max_steps: 1 } } } },
    );
    try {
      const result = await s.run(["run", "narrow"]);
      assert.equal(result.code, 0, result.stderr);
      const child = sessions(s).find((x) => x.parentId !== null) as Stored;
      const offered = child.decisions.find((d) => d.seat === "context.tools");
      assert.deepEqual(offered?.answer, ["read", "glob", "write"]);
      const cut = expectDecision(child.decisions, "delegate.authority", "code");
      assert.match(JSON.stringify(cut.reasons), /not the parent's, so not the delegate's: nonexistent_\*/);
      assert.match(String(cut.answer), /1 steps/);
      expectDecision(child.decisions, "turn.limit", "config");
      assert.match(result.stderr, /✗ task scout: limit/);
    } finally {
      await s.close();
    }
  });
});
