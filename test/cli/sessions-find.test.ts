import assert from "node:assert/strict";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import type { RunResult } from "../support/workspace.js";

/**
 * Sessions you can find, through the real binary and the scripted model server: the listing's
 * local times and ages, a fork's parent, and sessions that belong to the repository's root so
 * that any of its folders finds them. Run `npm run build` first.
 */

/** The machine is in India (UTC+05:30, no daylight saving): listed times are its clock's. */
const TZ = { TZ: "Asia/Kolkata" };
const MINUTE = 60_000;

interface Listed {
  id: string;
  title: string;
  directory: string;
  parent: string | null;
  created: string;
  updated: string;
}

/** `YYYY-MM-DD HH:MM` in India of a moment. */
function indianTime(ms: number): string {
  return new Date(ms + 330 * MINUTE).toISOString().slice(0, 16).replace("T", " ");
}

async function bosun(s: Scenario, args: string[], cwd = s.ws.dir): Promise<RunResult> {
  const result = await s.ws.run(args, { cwd, env: { AI_SDK_LOG_WARNINGS: "false", ...TZ } });
  assert.equal(result.code, 0, `bosun ${args.join(" ")} exited ${result.code}:\n${result.stderr}`);
  return result;
}

async function listed(s: Scenario, args: string[] = [], cwd?: string): Promise<Listed[]> {
  return JSON.parse((await bosun(s, ["sessions", "--json", ...args], cwd)).stdout) as Listed[];
}

/** The listing's rows as cells (split on the table's two-space gaps). */
async function rows(s: Scenario, args: string[] = [], cwd?: string): Promise<string[][]> {
  const text = (await bosun(s, ["sessions", ...args], cwd)).stdout.trimEnd();
  return text.split("\n").map((line) => line.split(/ {2,}/));
}

/** Moves a session's last update back in time, as if nothing had happened in it since. */
function age(s: Scenario, id: string, ms: number): number {
  const updated = Date.now() - ms;
  const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
  try {
    store.db.prepare("UPDATE sessions SET updated = ? WHERE id = ?").run(updated, id);
  } finally {
    store.close();
  }
  return updated;
}

const reply = { reply: { text: "Done." } };

describe("bosun sessions: sessions you can find", () => {
  it("lists local times with their age, a fork's parent (column and JSON), and the directory", async () => {
    const s = await startScenario({ rules: [reply] });
    try {
      const original = (await bosun(s, ["sessions", "new", "-t", "original"])).stdout.trim();
      const forked = (await bosun(s, ["sessions", "fork", original])).stdout.trim();
      // A fork by the run's own flags names its parent too.
      await bosun(s, ["run", "-s", original, "--fork", "try another way"]);
      const [byRun] = await listed(s);
      assert.ok(byRun && byRun.id !== original && byRun.id !== forked, "the run made a new session");
      // Named as `bosun sessions fork` names it, not after the fork's first message.
      assert.equal(byRun.title, "original (fork)");

      const dir = realpathSync(s.ws.dir);
      const json = await listed(s);
      assert.deepEqual(
        json.map((x) => [x.id, x.parent, x.directory]),
        [
          [byRun.id, original, dir],
          [forked, original, dir],
          [original, null, dir],
        ],
      );

      const threeMin = age(s, original, 3 * MINUTE + 10_000);
      const twoDays = age(s, forked, 2 * 24 * 60 * MINUTE + MINUTE);
      const table = await rows(s);
      assert.deepEqual(table[0], ["ID", "UPDATED", "AGE", "PARENT", "DIRECTORY", "TITLE"]);
      const byId = new Map(table.slice(1).map((row) => [row[0], row]));
      assert.deepEqual(byId.get(original), [original, indianTime(threeMin), "3 min ago", "-", dir, "original"]);
      assert.deepEqual(byId.get(forked), [
        forked,
        indianTime(twoDays),
        "2 days ago",
        original.slice(0, 10),
        dir,
        "original (fork)",
      ]);
      assert.equal(byId.get(byRun.id)?.[2], "just now");
      assert.equal(byId.get(byRun.id)?.[3], original.slice(0, 10));
      // The newest first: the run's fork, then the original (3 min), then the first fork (2 days).
      assert.deepEqual(
        table.slice(1).map((row) => row[0]),
        [byRun.id, original, forked],
      );
      // The parent's prefix is one `sessions show` takes; show names it in full.
      assert.match((await bosun(s, ["sessions", "show", forked])).stdout, new RegExp(`\nparent {5}${original}\n`));
      assert.match((await bosun(s, ["sessions", "show", original.slice(0, 10)])).stdout, /\ntitle {6}original\n/);
    } finally {
      await s.close();
    }
  });

  it("a session started in a subfolder belongs to the repository: listed and continued from any of its folders", async () => {
    const s = await startScenario({ rules: [reply] });
    try {
      const dir = realpathSync(s.ws.dir);
      const deep = join(dir, "src", "deep");
      const docs = join(dir, "docs");
      mkdirSync(deep, { recursive: true });
      mkdirSync(docs);
      await bosun(s, ["run", "fix the parser"], deep);
      const [started] = await listed(s, [], deep);
      assert.equal(started?.directory, dir, "recorded with the repository's root");

      // Listed from another folder of the repository, with where it belongs.
      assert.deepEqual(
        (await listed(s, [], docs)).map((x) => x.id),
        [started.id],
      );
      const table = await rows(s, [], docs);
      assert.equal(table[1]?.[4], dir);

      // -c from that other folder continues it: no new session, no question of where to work.
      const continued = await bosun(s, ["run", "-c", "and the lexer"], docs);
      assert.doesNotMatch(continued.stderr, /was started in/);
      assert.deepEqual(
        (await listed(s, ["--all"])).map((x) => x.id),
        [started.id],
      );
      const { id, decisions } = s.latest();
      assert.equal(id, started.id);
      const targets = decisions.filter((d) => d.seat === "session.target");
      expectDecision(targets.slice(1), "session.target", "person", { mode: "continue", session: started.id });
      assert.equal(
        decisions.filter((d) => d.seat === "session.cwd").length,
        0,
        "a folder of the same repository is not elsewhere",
      );

      // A folder outside the repository has none of its sessions.
      const outside = join(dir, "..", "outside");
      mkdirSync(outside);
      assert.deepEqual(await listed(s, [], outside), []);
    } finally {
      await s.close();
    }
  });
});
