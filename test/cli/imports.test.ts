import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { RecordedDecision } from "../../src/contracts/decisions.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, startScenario } from "../support/scenario.js";

/**
 * Imports cannot lie (bosun issue 12, class 3), and a call that never started is still accounted
 * for (class 7): the real binary against the scripted model server.
 */

interface ExportEvent {
  seq: number;
  type: string;
  data: unknown;
  at: string;
}
interface ExportJson {
  format: string;
  session: { id: string; title: string; directory: string; parent: string | null; created: string; updated: string };
  events: ExportEvent[];
}

const dbPath = (s: Scenario) => join(s.ws.home, "data", "bosun.db");

/** Rows in the database: sessions plus events, so "nothing written" is a number. */
function rows(s: Scenario): number {
  const store = SessionStore.open(dbPath(s));
  try {
    const count = (table: string) => (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return count("sessions") + count("events");
  } finally {
    store.close();
  }
}

/** A real session (a read, a shell command), exported. */
async function realExport(s: Scenario): Promise<ExportJson> {
  s.ws.write("a.txt", "one\n");
  const run = await s.run(["run", "--auto", "look around"]);
  assert.equal(run.code, 0, run.stderr);
  const exported = await s.run(["sessions", "export", s.latest().id]);
  assert.equal(exported.code, 0, exported.stderr);
  return JSON.parse(exported.stdout) as ExportJson;
}

const lookAround = [
  {
    match: { lastMessage: "look around" },
    reply: {
      toolCalls: [
        { id: "r1", name: "read", arguments: { path: "a.txt" } },
        { id: "s1", name: "shell", arguments: { command: "echo hi" } },
      ],
    },
  },
  { match: { lastMessage: "tool_result s1" }, reply: { text: "Looked." } },
];

/** A value of another JSON type than `value`'s. */
function wrongType(value: unknown): unknown {
  if (typeof value === "string") return 42;
  if (typeof value === "number") return "42";
  if (typeof value === "boolean") return "yes";
  return "text";
}

describe("bosun sessions import: imports cannot lie", () => {
  it("refuses bad ids, bad events and bad data naming the event and field, exit 2, nothing written", async () => {
    const s = await startScenario({ rules: lookAround });
    try {
      const good = await realExport(s);
      const { id } = good.session;
      assert.equal((await s.run(["sessions", "delete", id, "--yes"])).code, 0);
      const before = rows(s);
      const dataDir = readdirSync(join(s.ws.home, "data")).sort();

      const withSession = (session: Partial<ExportJson["session"]>) => ({
        ...good,
        session: { ...good.session, ...session },
      });
      const replacing = (seq: number, data: unknown) => ({
        ...good,
        events: good.events.map((e) => (e.seq === seq ? { ...e, data } : e)),
      });
      const appending = (type: string, data: unknown) => ({
        ...good,
        events: [...good.events, { seq: good.events.length + 1, type, data, at: good.session.updated }],
      });
      const next = good.events.length + 1;
      const decision = good.events.find((e) => e.type === "decision") as ExportEvent;
      const cases: Array<[string, unknown, RegExp]> = [
        [
          "../ id",
          withSession({ id: "../../../../tmp/bosun-escape" }),
          /session\.id: must be a session id as bosun makes them/,
        ],
        ["absolute id", withSession({ id: "/etc/passwd" }), /session\.id: must be a session id/],
        ["NUL in the id", withSession({ id: `${id.slice(0, 25)}\u0000` }), /session\.id: must be a session id/],
        ["over-long id", withSession({ id: `${id}${"0".repeat(4000)}` }), /session\.id: must be a session id/],
        ["../ parent", withSession({ parent: `../${id}` }), /session\.parent: must be a session id/],
        [
          "unknown seat",
          replacing(decision.seq, { ...(decision.data as object), seat: "made.up" }),
          new RegExp(`event ${decision.seq} \\(decision\\): data\\.seat: "made\\.up" is not a seat`),
        ],
        [
          "toolCalls not an array",
          appending("message.assistant", {
            text: "",
            toolCalls: "read",
            finish: "tool-calls",
            model: "m",
            step: 1,
            status: "complete",
          }),
          new RegExp(`event ${next} \\(message\\.assistant\\): data\\.toolCalls: expected array, not string`),
        ],
        [
          "unknown type",
          appending("tool.result", { id: "x" }),
          new RegExp(`event ${next} \\(tool\\.result\\): "tool\\.result" is not an event type this bosun records`),
        ],
        [
          "huge seq gap",
          {
            ...good,
            events: [
              ...good.events,
              { seq: 2 ** 40, type: "message.notice", data: { text: "x" }, at: good.session.updated },
            ],
          },
          new RegExp(`events must be numbered 1\\.\\.n in order; event ${next} has seq ${2 ** 40}`),
        ],
      ];
      // Every event type this real session holds: the data of the wrong type, and one field of it.
      const firstOfType = new Map<string, ExportEvent>();
      for (const event of good.events) if (!firstOfType.has(event.type)) firstOfType.set(event.type, event);
      assert.ok(firstOfType.size >= 8, `a real session holds many event types (${[...firstOfType.keys()].join(", ")})`);
      for (const [type, event] of firstOfType) {
        const name = type.replace(/\./g, "\\.");
        cases.push([
          `${type} data`,
          replacing(event.seq, 42),
          new RegExp(`event ${event.seq} \\(${name}\\): data: expected object, not number`),
        ]);
        const [key, value] = Object.entries(event.data as object).find(([k]) => k !== "answer") ?? assert.fail(type);
        cases.push([
          `${type}.${key}`,
          replacing(event.seq, { ...(event.data as object), [key]: wrongType(value) }),
          new RegExp(`^bosun: stdin: event ${event.seq} \\(${name}\\): data\\.${key}: `),
        ]);
      }
      // Refused concurrently: none may write, whatever the others do.
      await Promise.all(
        cases.map(async ([what, file, message]) => {
          const result = await s.run(["sessions", "import", "-"], { input: JSON.stringify(file) });
          assert.equal(result.code, 2, `${what}: ${result.stderr}`);
          assert.equal(result.stdout, "", what);
          assert.match(result.stderr, message, what);
          assert.doesNotMatch(result.stderr, /\n\s+at /, what);
        }),
      );
      assert.equal(rows(s), before, "nothing written");
      assert.deepEqual(readdirSync(join(s.ws.home, "data")).sort(), dataDir, "no folder made");
      assert.equal(existsSync("/tmp/bosun-escape"), false);

      // The untouched export still imports, and why reads it back.
      const imported = await s.run(["sessions", "import", "-"], { input: JSON.stringify(good) });
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(rows(s), before + 1 + good.events.length);
    } finally {
      await s.close();
    }
  });

  it("a session whose stored id is not one bosun makes (an older import) names no folder: exit 2", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "never asked" } }] });
    try {
      // Written straight into the database, as an older bosun's import could have.
      const store = SessionStore.open(dbPath(s));
      const bad = "../../../escaped";
      try {
        const at = Date.now();
        store.insertWhole({ id: bad, title: "old", directory: s.ws.dir, parentId: null, created: at, updated: at }, [
          { seq: 1, type: "session.created", data: { title: "old", directory: s.ws.dir, parent: null }, at },
        ]);
      } finally {
        store.close();
      }
      const result = await s.run(["run", "-s", bad, "hello"]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        /session id "\.\.\/\.\.\/\.\.\/escaped" is not one bosun makes; it cannot name a folder/,
      );
      assert.doesNotMatch(result.stderr, /\n\s+at /);
      assert.equal(s.server.requests.length, 0);
      assert.equal(existsSync(join(s.ws.home, "escaped")), false);
      assert.equal(existsSync(join(s.ws.home, "..", "escaped")), false);
    } finally {
      await s.close();
    }
  });
});

describe("bosun run --continue: a call that never started is still accounted for", () => {
  it("records session.recover 'never started' per call, tells the model, and never runs them", async () => {
    const s = await startScenario({
      rules: [...lookAround, { match: { lastMessage: "go on" }, reply: { text: "Understood; they never ran." } }],
    });
    try {
      const good = await realExport(s);
      const { id } = good.session;
      // bosun died here: the model's reply with two calls is stored, neither call's write-ahead record is.
      const at = good.session.updated;
      const n = good.events.length;
      const crashed: ExportJson = {
        ...good,
        events: [
          ...good.events,
          { seq: n + 1, type: "message.user", data: { text: "make the markers" }, at },
          {
            seq: n + 2,
            type: "message.assistant",
            data: {
              text: "Making them.",
              toolCalls: [
                { id: "m1", name: "shell", input: { command: "touch marker.txt" } },
                { id: "m2", name: "write", input: { path: "marker2.txt", content: "x\n" } },
              ],
              finish: "tool-calls",
              model: "scripted/test-model",
              step: 1,
              status: "complete",
            },
            at,
          },
        ],
      };
      assert.equal((await s.run(["sessions", "delete", id, "--yes"])).code, 0);
      const imported = await s.run(["sessions", "import", "-"], { input: JSON.stringify(crashed) });
      assert.equal(imported.code, 0, imported.stderr);
      const requestsBefore = s.server.requests.length;

      const resumed = await s.run(["run", "-c", "--auto", "go on"]);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(resumed.stdout, "Understood; they never ran.\n");

      const why = await s.run(["why", id, "--json"]);
      assert.equal(why.code, 0, why.stderr);
      const decisions = JSON.parse(why.stdout) as RecordedDecision[];
      const recovered = decisions.filter((d) => d.seat === "session.recover");
      assert.deepEqual(
        recovered.map((d) => [d.holder, d.answer, d.subject]),
        [
          ["code", "never started", { step: 1, call: "m1" }],
          ["code", "never started", { step: 1, call: "m2" }],
        ],
      );
      const decision = expectDecision(decisions, "session.recover", "code", "never started");
      assert.match(decision.reasons[0]?.detail ?? "", /has no record: bosun stopped before it started; not run/);

      // Never run: no write-ahead record, no side effect on disk.
      const { events } = s.latest();
      assert.equal(
        events.filter((e) => e.type === "call.started" && ["m1", "m2"].includes((e.data as { id: string }).id)).length,
        0,
      );
      assert.equal(existsSync(join(s.ws.dir, "marker.txt")), false);
      assert.equal(existsSync(join(s.ws.dir, "marker2.txt")), false);
      // The model saw an error result for each, saying it never ran.
      const request = s.server.request(requestsBefore + 1).normalized;
      const results = (request?.messages ?? []).filter((m) => /tool_result m[12]/.test(m.text)).map((m) => m.text);
      assert.equal(results.length, 2, JSON.stringify(request?.messages));
      for (const text of results)
        assert.match(text, /Not run: bosun stopped after you asked for this call and before it started/);

      // Accounted for once: a later resume adds nothing more.
      assert.equal((await s.run(["run", "-c", "--auto", "go on"])).code, 0);
      const again = JSON.parse((await s.run(["why", id, "--json"])).stdout) as RecordedDecision[];
      assert.equal(again.filter((d) => d.seat === "session.recover").length, 2);
    } finally {
      await s.close();
    }
  });
});
