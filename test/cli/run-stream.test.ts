import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { checkedStream, documentedTypes, serverOnlyTypes } from "../support/run-stream.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

/**
 * `bosun run --format json` as a script sees it: the real binary against the scripted model
 * server, every line checked against schema/run-stream.v1.json, and every event type the schema
 * documents seen in some run here — so the documentation can neither be wrong about a line nor
 * list a type that never occurs.
 */

type Line = Record<string, unknown> & { type: string };

/** Every type seen on any stream of this file. */
const seen = new Set<string>();

/** A run's stream, checked against the schema line by line. */
async function stream(s: Scenario, args: string[]): Promise<{ code: number | null; lines: Line[]; stderr: string }> {
  const result = await s.run(args);
  const lines = checkedStream(result.stdout);
  for (const line of lines) seen.add(line.type);
  return { code: result.code, lines, stderr: result.stderr };
}

const of = (lines: Line[], type: string) => lines.filter((line) => line.type === type);
const last = (lines: Line[]) => lines.at(-1) as Line;

/** Prices for the scripted models, in US dollars per million tokens: a cost bosun can compute. */
const PRICE = { input: 2, output: 10 };
const TINY_PRICE = { input: 1, output: 4 };

/** The scripted provider, its models priced. */
function pricedConfig(s: Scenario, extra: Record<string, unknown> = {}): void {
  const { provider } = s.server.configFor("openai-compatible");
  s.setUserConfig({
    provider: {
      scripted: { ...provider.scripted, models: { "test-model": { price: PRICE }, tiny: { price: TINY_PRICE } } },
    },
    ...extra,
  });
}

describe("bosun run --format json: the documented stream", () => {
  it("a run with calls and a denial: session first, usage per step with its cost, totals and the result in done", async () => {
    const s = await startScenario({
      rules: [
        { match: { system: "title of a coding session" }, reply: { text: "Listing", usage: { input: 50, output: 5 } } },
        {
          match: { tool: "list", lastMessage: "make a file" },
          reply: {
            text: "Let me look.",
            toolCalls: [
              { id: "c1", name: "list", arguments: {} },
              { id: "c2", name: "shell", arguments: { command: "touch made.txt" } },
            ],
            usage: { input: 1000, output: 100, cacheRead: 400 },
          },
        },
        {
          match: { tool: "list" },
          reply: { text: "I could not create the file.", usage: { input: 1500, output: 20 } },
        },
      ],
    });
    try {
      // A small model writes the title: a request of the run that is no step.
      pricedConfig(s, { small_model: "scripted/tiny" });
      const { code, lines, stderr } = await stream(s, ["run", "--format", "json", "make a file"]);
      assert.equal(code, 3, stderr);
      const session = lines[0] as Line;
      const id = s.latest().id;
      assert.equal(session.type, "session");
      assert.equal(session.session, id);
      assert.ok(lines.every((line) => line.session === id && line.v === 1));
      assert.deepEqual(
        [session.opened, session.parent, session.model, session.agent, session.mode, session.maxSteps],
        ["new", null, "scripted/test-model", "build", "approve", 100],
      );
      assert.equal(session.cwd, s.ws.dir);
      assert.equal(session.version, JSON.parse(readFileSync("package.json", "utf8")).version);
      // The tools said up front are those the turn offered the model.
      const offered = of(lines, "decision").find((d) => d.seat === "context.tools");
      assert.deepEqual(session.tools, offered?.answer);
      const firstStep = s.server.requests.find((r) => r.normalized?.messages.at(-1)?.text === "make a file");
      assert.deepEqual([...(firstStep?.normalized?.tools ?? [])].sort(), [...(session.tools as string[])].sort());

      // One usage event per step, priced.
      const usage = of(lines, "usage");
      assert.deepEqual(
        usage.map((u) => [u.step, u.model, u.usage]),
        [
          [1, "scripted/test-model", { input: 1000, output: 100, cacheRead: 400, cacheWrite: 0 }],
          [2, "scripted/test-model", { input: 1500, output: 20, cacheRead: 0, cacheWrite: 0 }],
        ],
      );
      // Cached tokens without a price of their own cost what input does.
      assert.deepEqual(
        usage.map((u) => (u.cost as number).toFixed(6)),
        [((1000 * 2 + 100 * 10) / 1e6).toFixed(6), ((1500 * 2 + 20 * 10) / 1e6).toFixed(6)],
      );

      // The denied call: its tool_result, the decision that denied it, the count in done.
      // The denied call ends as it is judged, before the allowed one has run.
      const results = of(lines, "tool_result");
      assert.deepEqual(
        results.map((r) => [r.id, r.isError]),
        [
          ["c2", true],
          ["c1", false],
        ],
      );
      const denial = of(lines, "decision").find((d) => d.seat === "call.approval");
      assert.deepEqual([denial?.holder, denial?.answer], ["code", "deny"]);
      assert.deepEqual(denial?.subject, { step: 1, call: "c2" });
      // A decision on the stream is the one in the ledger, at the place ledgerSeq says.
      const recorded = s.latest().decisions.find((d) => d.seq === denial?.ledgerSeq);
      assert.equal(recorded?.seat, "call.approval");

      const done = last(lines);
      assert.deepEqual(
        [done.type, done.status, done.exitCode, done.steps, done.denied, done.result],
        ["done", "denied", 3, 2, 1, "I could not create the file."],
      );
      assert.equal(typeof done.durationMs, "number");
      // The totals count the title's request too: more than the steps' usage events.
      const totals = done.usage as { input: number; output: number; cacheRead: number; requests: number };
      assert.deepEqual(totals, { input: 2550, output: 125, cacheRead: 400, cacheWrite: 0, requests: 3 });
      const steps = (2500 * 2 + 120 * 10) / 1e6;
      const title = (50 * 1 + 5 * 4) / 1e6;
      assert.equal((done.cost as number).toFixed(6), (steps + title).toFixed(6));
    } finally {
      await s.close();
    }
  });

  it("a limit, a failed model and a continued run: error before done, done.message, opened continue", async () => {
    const list = { toolCalls: [{ id: "l1", name: "list", arguments: {} }] };
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: list },
        { match: { request: 2 }, reply: { error: { status: 401 } } },
        { reply: { text: "Fine." } },
      ],
    });
    try {
      const limit = await stream(s, ["run", "--format", "json", "--max-steps", "1", "look around"]);
      assert.equal(limit.code, 3, limit.stderr);
      const limitDone = last(limit.lines);
      assert.deepEqual([limitDone.status, limitDone.exitCode, limitDone.steps], ["limit", 3, 1]);
      const [limitError] = of(limit.lines, "error");
      assert.match(String(limitError?.message), /reached its limit of 1 steps/);
      assert.equal(limitDone.message, limitError?.message);
      assert.equal(limitDone.result, "", "the only reply had calls and no text");
      // No price known for the model: no cost, rather than a made-up one.
      assert.equal(limitDone.cost, null);
      assert.equal(of(limit.lines, "usage")[0]?.cost, null);

      const failed = await stream(s, ["run", "--format", "json", "-c", "again"]);
      assert.equal(failed.code, 1, failed.stderr);
      assert.equal(failed.lines[0]?.opened, "continue");
      assert.equal(failed.lines[0]?.session, limit.lines[0]?.session);
      const [error] = of(failed.lines, "error");
      assert.equal(error?.class, "authentication");
      const failedDone = last(failed.lines);
      assert.deepEqual([failedDone.status, failedDone.exitCode], ["failed", 1]);
      assert.equal(failedDone.message, error?.message);
    } finally {
      await s.close();
    }
  });

  it("--no-decisions leaves decisions out, through bosun run and bosun -p; a fork names its parent", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done here." } }] });
    try {
      const first = await stream(s, ["run", "--format", "json", "--no-decisions", "hello"]);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual([...new Set(first.lines.map((l) => l.type))], ["session", "text", "usage", "done"]);
      assert.equal(last(first.lines).result, "Done here.");
      // The ledger still has every decision.
      assert.ok(s.latest().decisions.some((d) => d.seat === "turn.done"));
      const parent = first.lines[0]?.session as string;

      const fork = await stream(s, ["-p", "--format", "json", "--no-decisions", "-s", parent, "--fork", "more"]);
      assert.equal(fork.code, 0, fork.stderr);
      assert.equal(of(fork.lines, "decision").length, 0);
      const session = fork.lines[0] as Line;
      assert.deepEqual([session.type, session.opened, session.parent], ["session", "fork", parent]);
      assert.notEqual(session.session, parent);
      // A fork's totals are its own run's, not the copied history's.
      assert.equal((last(fork.lines).usage as { requests: number }).requests, 1);

      // Text mode shows no decisions to leave out: the flag is refused, not ignored.
      const text = await s.run(["run", "--no-decisions", "hello"]);
      assert.equal(text.code, 2);
      assert.match(text.stderr, /--no-decisions is for --format json/);
    } finally {
      await s.close();
    }
  });

  it("a delegate's progress: delegate lines with its state and its own events, nested", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "hand it over" },
          reply: {
            toolCalls: [
              { id: "t1", name: "task", arguments: { agent: "plan", prompt: "CHILD: list", description: "look" } },
            ],
          },
        },
        { match: { lastMessage: "CHILD:" }, reply: { toolCalls: [{ id: "c1", name: "list", arguments: {} }] } },
        { match: { lastMessage: "bosun.json" }, reply: { text: "the child listed the folder" } },
        { reply: { text: "handed over" } },
      ],
    });
    try {
      const run = await stream(s, ["run", "--format", "json", "hand it over"]);
      assert.equal(run.code, 0, run.stderr);
      const delegate = of(run.lines, "delegate");
      const states = delegate.map((line) => line.state);
      assert.deepEqual([states[0], states.at(-1)], ["running", "done"]);
      assert.ok(delegate.every((line) => line.call === "t1" && line.agent === "plan" && line.description === "look"));
      const inner = delegate.flatMap((line) => (line.event ? [(line.event as { type: string }).type] : []));
      assert.ok(inner.includes("tool_call") && inner.includes("tool_result") && inner.includes("decision"));
      // Its events are its own session's: the delegate line names it, the envelope names this one.
      const taskId = delegate[0]?.task_id as string;
      assert.notEqual(taskId, run.lines[0]?.session);
      const result = of(run.lines, "tool_result").find((line) => line.id === "t1");
      assert.equal(result?.isError, false);
    } finally {
      await s.close();
    }
  });

  it("an MCP call that reports progress: tool_progress lines between its call and its result", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              {
                id: "long",
                name: "mcp__everything__trigger-long-running-operation",
                arguments: { duration: 1, steps: 4 },
              },
            ],
          },
        },
        { reply: { text: "done waiting" } },
      ],
    });
    try {
      s.setUserConfig({ mcp: { everything: { command: process.execPath, args: [EVERYTHING] } } });
      const run = await stream(s, ["run", "--format", "json", "wait for it"]);
      assert.equal(run.code, 0, run.stderr);
      const types = run.lines.filter((line) => line.id === "long").map((line) => line.type);
      // Between the call and its result. The SDK may settle the result before the last report
      // is handled (the server sends it just before answering): at least the first ones are there.
      assert.equal(types[0], "tool_call");
      assert.equal(types.at(-1), "tool_result");
      assert.ok(types.slice(1, -1).every((type) => type === "tool_progress") && types.length >= 4, types.join(", "));
      const progress = of(run.lines, "tool_progress");
      const name = "mcp__everything__trigger-long-running-operation";
      assert.ok(progress.every((line) => line.total === 4 && line.name === name));
      assert.deepEqual(
        progress.map((line) => line.progress),
        [1, 2, 3, 4].slice(0, progress.length),
      );
    } finally {
      await s.close();
    }
  });

  it("a failure before the session opens: error and done without a session; a flag the parser refuses: no stream", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "never" } }] });
    try {
      for (const args of [
        ["--agent", "ghost", "go"],
        ["--max-steps", "many", "go"],
      ]) {
        const bad = await stream(s, ["run", "--format", "json", ...args]);
        assert.equal(bad.code, 2, bad.stderr);
        assert.deepEqual(
          bad.lines.map((l) => [l.type, l.session]),
          [
            ["error", undefined],
            ["done", undefined],
          ],
        );
        assert.deepEqual([last(bad.lines).status, last(bad.lines).exitCode], ["error", 2]);
        assert.equal(last(bad.lines).message, bad.lines[0]?.message);
      }
      // Before --format is even read: said on stderr, exit 2, stdout empty.
      const refused = await s.run(["run", "--format", "json", "--bogus", "go"]);
      assert.equal(refused.code, 2);
      assert.equal(refused.stdout, "");
      assert.match(refused.stderr, /unknown option '--bogus'/);
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });

  it("--no-decisions at a terminal without -p is refused with a pointer at -p: the interactive session has no stream", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "never" } }] });
    const env = { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false", CI: "true" };
    const refused = startTmux({ cwd: s.ws.dir, env, args: ["--no-decisions"] });
    try {
      const until = Date.now() + 10_000;
      while (refused.exitCode() === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      assert.equal(refused.exitCode(), 2, refused.screen());
      assert.match(refused.screen(), /--no-decisions is for a run, not the interactive session: add -p/);
    } finally {
      refused.kill();
      await s.close();
    }
  });

  it("a model configured to reason: its thinking streams as reasoning events, its tokens in usage", async () => {
    const s = await startScenario(
      { rules: [{ reply: { thinking: [{ text: "Thinking it over." }], reasoningTokens: 3, text: "Done." } }] },
      { protocol: "openai" },
    );
    try {
      const { provider } = s.server.configFor("openai");
      s.setUserConfig({
        provider: { scripted: { ...provider.scripted, models: { "test-model": { reasoning: { effort: "low" } } } } },
      });
      const { code, lines, stderr } = await stream(s, ["run", "--format", "json", "hi"]);
      assert.equal(code, 0, stderr);
      assert.equal(
        of(lines, "reasoning")
          .map((line) => line.text)
          .join(""),
        "Thinking it over.",
      );
      const usage = of(lines, "usage")[0]?.usage as { reasoning?: number } | undefined;
      assert.equal(usage?.reasoning, 3);
    } finally {
      await s.close();
    }
  });

  it("every event type the schema documents for a run occurred in a run above, and the README lists exactly those", () => {
    // The server's own types (ask, question, gap, …) are its tests' to see (serve-turns.test.ts).
    const serverOnly = serverOnlyTypes();
    const documented = documentedTypes().filter((type) => !serverOnly.includes(type));
    assert.deepEqual(
      documented.filter((type) => !seen.has(type)),
      [],
      "documented types no run produced",
    );
    assert.deepEqual(
      [...seen].filter((type) => !documented.includes(type)),
      [],
      "types produced but not documented",
    );
    assert.deepEqual(readmeTypes(), documented);
  });
});

/** The event types the README's `--format json` table lists, in its order. */
function readmeTypes(): string[] {
  const readme = readFileSync("README.md", "utf8");
  const start = readme.indexOf("### `--format json`");
  assert.ok(start >= 0, "the README has a ### `--format json` section");
  const section = readme.slice(start, readme.indexOf("\n#", start + 1));
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1] as string);
}
