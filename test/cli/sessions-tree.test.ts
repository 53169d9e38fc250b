import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { describe, test } from "node:test";
import { acquireLease } from "../../src/store/lease.js";
import { buildFamily, counterClock, delegate, openStore, turn } from "../support/delegates.js";
import { createWorkspace, type Workspace } from "../support/workspace.js";

/**
 * `bosun sessions` with delegates (sessions a parent's `task` call started), through the real
 * binary, over sessions built in the workspace's store as a delegating run leaves them
 * (test/support/delegates.ts). Run `npm run build` first.
 */

interface Listed {
  id: string;
  title: string;
  parent: string | null;
  delegate: { agent: string; description?: string; call: string; depth: number } | null;
  status: string | null;
}

async function withWorkspace(fn: (ws: Workspace) => Promise<void>): Promise<void> {
  const ws = createWorkspace();
  try {
    await fn(ws);
  } finally {
    ws.cleanup();
  }
}

async function ok(ws: Workspace, args: string[]): Promise<string> {
  const result = await ws.run(args, { env: { COLUMNS: "200" } });
  assert.equal(result.code, 0, `bosun ${args.join(" ")} exited ${result.code}:\n${result.stderr}`);
  return result.stdout;
}

/** The table's rows (no header), each as its ID cell (indent kept) and the rest of the cells. */
async function rows(ws: Workspace, args: string[] = []): Promise<Array<{ id: string; cells: string[] }>> {
  const [header, ...lines] = (await ok(ws, ["sessions", ...args])).trimEnd().split("\n");
  assert.match(header ?? "", /^ID {2,}UPDATED {2,}AGE {2,}PARENT {2,}DIRECTORY {2,}TITLE$/);
  return lines.map((line) => {
    // The indent and corner first: the split on two spaces would take the indent for a cell.
    const [, indent = "", rest = ""] = /^( *(?:└ )?)(.*)$/.exec(line) ?? [];
    const [id = "", ...cells] = rest.split(/ {2,}(?=\S)/);
    return { id: `${indent}${id}`, cells };
  });
}

describe("bosun sessions: delegates under their parent", { concurrency: 4 }, () => {
  test("each delegate indented under its parent (a grandchild deeper), with agent, task and status; forks and orphans at the top", () =>
    withWorkspace(async (ws) => {
      const f = buildFamily(ws);
      const listed = await rows(ws);
      assert.deepEqual(
        listed.map((r) => r.id),
        [f.lost, f.stray, f.fork, f.root, `└ ${f.reviewer}`, `  └ ${f.explorer}`, `└ ${f.builder}`],
      );
      const title = (id: string) => listed.find((r) => r.id.endsWith(id))?.cells.at(-1);
      const parent = (id: string) => listed.find((r) => r.id.endsWith(id))?.cells.at(2);
      assert.equal(title(f.root), "build the feature");
      assert.equal(parent(f.root), "-");
      assert.equal(title(f.reviewer), "reviewer: review the diff · done");
      assert.equal(title(f.explorer), "explorer: find the callers · failed");
      // No description given: the task is named by the session's title; a turn begun and never ended, nothing holding it.
      assert.equal(title(f.builder), "builder: write the fix · unfinished");
      assert.equal(parent(f.explorer), f.reviewer.slice(0, 10));
      // A fork is no delegate: at the top, its parent a column, as before.
      assert.equal(title(f.fork), "build the feature (fork)");
      assert.equal(parent(f.fork), f.root.slice(0, 10));
      // Delegates whose parent is not listed: at the top, marked with the parent, saying where it is.
      assert.equal(parent(f.stray), f.strayParent.slice(0, 10));
      assert.equal(title(f.stray), `helper: tidy up · limit · parent in ${f.elsewhere}`);
      assert.equal(title(f.lost), "helper: orphaned · parent deleted");

      // Every directory: the stray delegate's parent is listed now, and it sits under it.
      const all = await rows(ws, ["--all"]);
      const at = all.findIndex((r) => r.id === f.strayParent);
      assert.equal(all[at + 1]?.id, `└ ${f.stray}`);
      assert.equal(all[at + 1]?.cells.at(-1), "helper: tidy up · limit");
    }));

  test("--json: every session flat, newest first, with parent, delegate and status", () =>
    withWorkspace(async (ws) => {
      const f = buildFamily(ws);
      const listed = JSON.parse(await ok(ws, ["sessions", "--json"])) as Listed[];
      assert.deepEqual(
        listed.map((s) => s.id),
        [f.lost, f.stray, f.fork, f.root, f.builder, f.reviewer, f.explorer],
      );
      const one = (id: string) => listed.find((s) => s.id === id) ?? assert.fail(id);
      assert.deepEqual(one(f.reviewer).delegate, {
        agent: "reviewer",
        description: "review the diff",
        call: "c1",
        depth: 1,
      });
      assert.equal(one(f.reviewer).parent, f.root);
      assert.equal(one(f.reviewer).status, "done");
      assert.deepEqual(one(f.explorer).delegate, {
        agent: "explorer",
        description: "find the callers",
        call: "k1",
        depth: 2,
      });
      assert.equal(one(f.explorer).status, "failed");
      assert.deepEqual(one(f.builder).delegate, { agent: "builder", call: "c2", depth: 1 });
      assert.equal(one(f.builder).status, "unfinished");
      assert.notEqual(one(f.lost).parent, null);
      for (const id of [f.root, f.fork]) {
        assert.equal(one(id).delegate, null);
        assert.equal(one(id).status, null);
      }
      assert.equal(one(f.fork).parent, f.root);
    }));

  test("a delegate a live run holds is running; sessions show names its agent, task, call and children", () =>
    withWorkspace(async (ws) => {
      const f = buildFamily(ws);
      const store = openStore(ws, Date.now);
      const lease = acquireLease(store, f.builder);
      try {
        const listed = await rows(ws);
        assert.equal(listed.find((r) => r.id.endsWith(f.builder))?.cells.at(-1), "builder: write the fix · running");
      } finally {
        lease.release();
        store.close();
      }
      const shown = (await ok(ws, ["sessions", "show", f.reviewer])).split("\n");
      assert.ok(shown.includes(`parent     ${f.root}`), shown.join("\n"));
      assert.ok(shown.includes("delegate   reviewer: review the diff · done (call c1, depth 1)"), shown.join("\n"));
      assert.ok(
        shown.includes(`children   1 (bosun why ${f.reviewer} --tree shows their decisions)`),
        shown.join("\n"),
      );
      const json = JSON.parse(await ok(ws, ["sessions", "show", f.root, "--json"])) as Listed & { children: string[] };
      assert.deepEqual(json.children, [f.reviewer, f.builder]);
      assert.equal(json.delegate, null);
      // A fork is not counted among the children.
      const fork = (await ok(ws, ["sessions", "show", f.fork])).split("\n");
      assert.ok(!fork.some((l) => /^(delegate|children) /.test(l)), fork.join("\n"));
    }));

  test("a parent shows its latest 5 delegates after a line counting the earlier ones; --children shows every one", () =>
    withWorkspace(async (ws) => {
      const dir = realpathSync(ws.dir);
      const store = openStore(ws, counterClock());
      const kids: string[] = [];
      let root: string;
      let under: string;
      try {
        root = store.create({ directory: dir, title: "many tasks" }).id;
        for (let i = 1; i <= 7; i++) {
          const id = delegate(store, root, dir, { agent: "worker", description: `task ${i}`, call: `c${i}`, depth: 1 });
          turn(store, id, `do task ${i}`, { status: "done" });
          kids.push(id);
        }
        // The first delegate's own delegate goes with it when it is left out.
        under = delegate(store, kids[0] as string, dir, { agent: "worker", description: "sub", call: "s1", depth: 2 });
        store.create({ directory: dir, title: "later" });
      } finally {
        store.close();
      }
      const listed = await rows(ws);
      assert.deepEqual(
        listed.map((r) => r.id),
        [listed[0]?.id, root, "└ …", ...kids.slice(2).map((k) => `└ ${k}`)],
      );
      assert.equal(listed[2]?.cells.at(-1), "2 earlier child sessions (--children lists every one)");
      assert.deepEqual(
        listed.slice(3).map((r) => r.cells.at(-1)),
        [3, 4, 5, 6, 7].map((i) => `worker: task ${i} · done`),
      );
      const every = await rows(ws, ["--children"]);
      assert.deepEqual(
        every.map((r) => r.id),
        [every[0]?.id, root, `└ ${kids[0]}`, `  └ ${under}`, ...kids.slice(1).map((k) => `└ ${k}`)],
      );
      // JSON is never cut: every session.
      assert.equal((JSON.parse(await ok(ws, ["sessions", "--json"])) as Listed[]).length, 10);
    }));

  test("an unknown flag is a usage error", () =>
    withWorkspace(async (ws) => {
      for (const args of [
        ["sessions", "--tree"],
        ["sessions", "--children=3"],
      ]) {
        const result = await ws.run(args);
        assert.equal(result.code, 2, result.stderr);
        assert.equal(result.stdout, "");
        assert.match(result.stderr, /^bosun: /);
        assert.match(result.stderr, /Usage: bosun sessions/);
      }
    }));
});
