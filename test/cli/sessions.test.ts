import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import { SessionStore } from "../../src/store/session-store.js";
import { BOSUN_BIN, createWorkspace, type RunResult, type Workspace } from "../support/workspace.js";

/**
 * `bosun sessions ...` driven through the real compiled binary, each test in its own
 * workspace (git repo + BOSUN_HOME). Run `npm run build` first.
 */

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface SessionJson {
  id: string;
  title: string;
  directory: string;
  parent: string | null;
  delegate: { agent: string; description?: string; call: string; depth: number } | null;
  status: string | null;
  created: string;
  updated: string;
}

interface ExportJson {
  format: string;
  session: Omit<SessionJson, "delegate" | "status">;
  events: { seq: number; type: string; data: unknown; at: string }[];
}

async function withWorkspace(fn: (ws: Workspace, dir: string) => Promise<void>): Promise<void> {
  const ws = createWorkspace();
  try {
    await fn(ws, realpathSync(ws.dir));
  } finally {
    ws.cleanup();
  }
}

/** Runs bosun and asserts it exited 0, returning stdout. */
async function ok(ws: Workspace, args: string[], options?: Parameters<Workspace["run"]>[1]): Promise<string> {
  const result = await ws.run(args, options);
  assert.equal(result.code, 0, `bosun ${args.join(" ")} exited ${result.code}:\n${result.stderr}`);
  return result.stdout;
}

/** Runs bosun and asserts it was refused as a usage error: exit 2, nothing on stdout, no stack. */
async function usage(ws: Workspace, args: string[], options?: Parameters<Workspace["run"]>[1]): Promise<RunResult> {
  const result = await ws.run(args, options);
  assert.equal(result.code, 2, `bosun ${args.join(" ")} should exit 2, got ${result.code}:\n${result.stderr}`);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^bosun: /);
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
  return result;
}

async function listJson(ws: Workspace, args: string[] = [], cwd?: string): Promise<SessionJson[]> {
  return JSON.parse(await ok(ws, ["sessions", "--json", ...args], cwd ? { cwd } : {})) as SessionJson[];
}

/** The listing's JSON for one session. */
async function sessionJson(ws: Workspace, id: string): Promise<SessionJson> {
  return (await listJson(ws, ["--all"])).find((s) => s.id === id) ?? assert.fail(`${id} is not listed`);
}

/**
 * `sessions new`, which prints the new id. Its text output is used rather than `new --json`, so
 * that one bug in --json handling (see the test "--json after a subcommand") does not hide
 * everything else these tests check.
 */
async function newSession(ws: Workspace, args: string[] = [], cwd?: string): Promise<{ id: string }> {
  const id = (await ok(ws, ["sessions", "new", ...args], cwd ? { cwd } : {})).trim();
  assert.match(id, ULID);
  return { id };
}

/** A listed session as an export's `session` has it: the file format (bosun.session/1) has no delegate facts. */
function exported(listed: SessionJson | undefined): Omit<SessionJson, "delegate" | "status"> {
  if (!listed) return assert.fail("no session listed");
  const { delegate: _delegate, status: _status, ...session } = listed;
  return session;
}

async function exportJson(ws: Workspace, ref: string): Promise<ExportJson> {
  return JSON.parse(await ok(ws, ["sessions", "export", ref])) as ExportJson;
}

/** Opens the workspace's own database directly, as another process would. */
function withStore<T>(ws: Workspace, fn: (store: SessionStore) => T): T {
  const store = SessionStore.open(join(ws.home, "data", "bosun.db"));
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

describe("bosun sessions (list)", { concurrency: 4 }, () => {
  test("with no sessions: says so, in text and as an empty JSON array", () =>
    withWorkspace(async (ws, dir) => {
      assert.equal(await ok(ws, ["sessions"]), `no sessions in ${dir} (--all lists every directory)\n`);
      assert.equal(await ok(ws, ["sessions", "--all"]), "no sessions yet\n");
      assert.deepEqual(await listJson(ws), []);
      assert.deepEqual(await listJson(ws, ["--all"]), []);
    }));

  test("lists this repository's sessions newest first; --all lists every directory", () =>
    withWorkspace(async (ws, dir) => {
      // Outside the repository: its sessions are not this repository's.
      const other = join(dir, "..", "elsewhere");
      mkdirSync(other);
      const alpha = await newSession(ws, ["--title", "alpha"]);
      const untitled = await newSession(ws);
      const gamma = await newSession(ws, ["--title", "gamma"], other);

      const here = await listJson(ws);
      assert.deepEqual(
        here.map((s) => s.id),
        [untitled.id, alpha.id],
      );
      for (const s of here) {
        assert.deepEqual(Object.keys(s), [
          "id",
          "title",
          "directory",
          "parent",
          "delegate",
          "status",
          "created",
          "updated",
        ]);
        assert.match(s.id, ULID);
        assert.equal(s.directory, dir);
        assert.equal(s.parent, null);
        assert.equal(s.delegate, null);
        assert.equal(s.status, null);
        assert.match(s.created, ISO);
        assert.match(s.updated, ISO);
        assert.ok(s.created <= s.updated);
      }
      assert.deepEqual(
        here.map((s) => s.title),
        ["", "alpha"],
      );

      const all = await listJson(ws, ["--all"]);
      assert.deepEqual(
        all.map((s) => [s.id, s.directory]),
        [
          [gamma.id, other],
          [untitled.id, dir],
          [alpha.id, dir],
        ],
      );
      assert.deepEqual(
        (await listJson(ws, [], other)).map((s) => s.id),
        [gamma.id],
      );

      // Text: a header and one row per session, same order, untitled shown as such.
      const lines = (await ok(ws, ["sessions"])).trimEnd().split("\n");
      assert.match(lines[0] ?? "", /^ID {2,}UPDATED {2,}AGE {2,}PARENT {2,}DIRECTORY {2,}TITLE$/);
      assert.equal(lines.length, 3);
      assert.match(
        lines[1] ?? "",
        new RegExp(`^${untitled.id} {2}[-\\d]+ [:\\d]+ {2}just now {2}- {7}${dir} {2}\\(untitled\\)$`),
      );
      assert.match(lines[2] ?? "", new RegExp(`^${alpha.id} {2}[-\\d]+ [:\\d]+ {2}just now {2}- {7}${dir} {2}alpha$`));
      const allLines = (await ok(ws, ["sessions", "--all"])).trimEnd().split("\n");
      assert.match(allLines[0] ?? "", /^ID {2,}UPDATED {2,}AGE {2,}PARENT {2,}DIRECTORY {2,}TITLE$/);
      assert.equal(allLines.length, 4);
      assert.match(allLines[1] ?? "", new RegExp(`^${gamma.id} {2}.+ {2}${other} {2}gamma$`));
    }));

  test("orders by last update: a session written to later moves to the top", () =>
    withWorkspace(async (ws) => {
      const first = await newSession(ws, ["-t", "first"]);
      const second = await newSession(ws, ["-t", "second"]);
      const before = await listJson(ws);
      assert.deepEqual(
        before.map((s) => s.title),
        ["second", "first"],
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      withStore(ws, (store) => store.append(first.id, "note", { text: "touched" }));
      const after = await listJson(ws);
      assert.deepEqual(
        after.map((s) => s.id),
        [first.id, second.id],
      );
      assert.ok((after[0]?.updated ?? "") > (before[0]?.updated ?? ""));
    }));

  test("bad flags and stray arguments are usage errors", () =>
    withWorkspace(async (ws) => {
      assert.match((await usage(ws, ["sessions", "--bogus"])).stderr, /unknown option '--bogus'/);
      await usage(ws, ["sessions", "stray"]);
      await usage(ws, ["sessions", "show"]);
      await usage(ws, ["sessions", "delete"]);
      await usage(ws, ["sessions", "new", "--title"]);
    }));

  test("several bosun processes starting at once on a fresh home all succeed", () =>
    withWorkspace(async (ws) => {
      const created = await Promise.all(Array.from({ length: 5 }, (_, i) => newSession(ws, ["-t", `parallel ${i}`])));
      const listed = await listJson(ws);
      assert.equal(listed.length, 5);
      assert.deepEqual(new Set(listed.map((s) => s.id)), new Set(created.map((s) => s.id)));
      withStore(ws, (store) => {
        assert.equal(store.db.pragma("integrity_check", { simple: true }), "ok");
        for (const s of created) assert.equal(store.events(s.id)[0]?.type, "session.created");
      });
    }));

  test("a database from a newer bosun is refused with a clear message, not a crash", () =>
    withWorkspace(async (ws) => {
      await newSession(ws);
      const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
      const raw = new Sqlite(join(ws.home, "data", "bosun.db"));
      raw.pragma("user_version = 999");
      raw.close();
      const result = await ws.run(["sessions"]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^bosun: the session database is at schema version 999, newer than this bosun knows/);
      assert.match(result.stderr, /upgrade bosun/);
      assert.doesNotMatch(result.stderr, /internal error/);
    }));
});

describe("bosun sessions new / show", { concurrency: 4 }, () => {
  test("new prints the id; --json prints the session; show finds it", () =>
    withWorkspace(async (ws, dir) => {
      const id = (await ok(ws, ["sessions", "new"])).trim();
      assert.match(id, ULID);
      const titled = await sessionJson(ws, (await newSession(ws, ["--title", "my task"])).id);
      assert.equal(titled.title, "my task");
      assert.equal(titled.directory, dir);
      assert.equal(titled.parent, null);
      assert.notEqual(titled.id, id);

      const text = await ok(ws, ["sessions", "show", titled.id]);
      assert.equal(
        text,
        [
          `id         ${titled.id}`,
          "title      my task",
          `directory  ${dir}`,
          "parent     -",
          `created    ${titled.created}`,
          `updated    ${titled.updated}`,
          "events     3 (session.created 1, decision 2)",
          `decisions  2 (bosun why ${titled.id})`,
          "tokens     0 in (cache read 0, write 0), 0 out, 0 request(s)",
          "cost       -",
          "",
        ].join("\n"),
      );
      assert.match(await ok(ws, ["sessions", "show", id]), /title {6}\(untitled\)/);
    }));

  test("--json after a subcommand (new, show, fork) prints JSON", () =>
    withWorkspace(async (ws, dir) => {
      const created = JSON.parse(await ok(ws, ["sessions", "new", "--title", "json", "--json"])) as SessionJson;
      assert.deepEqual(Object.keys(created), [
        "id",
        "title",
        "directory",
        "parent",
        "delegate",
        "status",
        "created",
        "updated",
      ]);
      assert.match(created.id, ULID);
      assert.equal(created.title, "json");
      assert.equal(created.directory, dir);

      const shown = JSON.parse(await ok(ws, ["sessions", "show", created.id, "--json"]));
      assert.deepEqual(shown, {
        ...(await sessionJson(ws, created.id)),
        children: [],
        events: 3,
        decisions: 2,
        eventTypes: { "session.created": 1, decision: 2 },
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, requests: 0, cost: 0, costUnknown: 0 },
      });

      const fork = JSON.parse(await ok(ws, ["sessions", "fork", created.id, "--json"])) as SessionJson;
      assert.notEqual(fork.id, created.id);
      assert.equal(fork.title, "json (fork)");
      assert.deepEqual(fork, await sessionJson(ws, fork.id));
    }));

  test("show sums the tokens and cost of every model request", () =>
    withWorkspace(async (ws) => {
      const { id } = await newSession(ws, ["-t", "costly"]);
      withStore(ws, (store) => {
        store.append(id, "model.usage", {
          model: "anthropic/claude-sonnet-4-5",
          input: 10_000,
          output: 2_000,
          cacheRead: 4_000,
          cacheWrite: 1_000,
          cost: 0.05,
        });
        store.append(id, "model.usage", {
          model: "anthropic/claude-sonnet-4-5",
          input: 5_000,
          output: 500,
          cacheRead: 0,
          cacheWrite: 0,
          cost: 0.0225,
        });
        store.append(id, "model.usage", { model: "local/qwen", input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
      });
      const shown = JSON.parse(await ok(ws, ["sessions", "show", id, "--json"])) as { usage: { cost: number } };
      assert.deepEqual(
        { ...shown.usage, cost: shown.usage.cost.toFixed(6) },
        {
          input: 15_300,
          output: 2_530,
          cacheRead: 4_000,
          cacheWrite: 1_000,
          requests: 3,
          cost: "0.072500",
          costUnknown: 1,
        },
      );
      const text = (await ok(ws, ["sessions", "show", id])).split("\n");
      assert.ok(
        text.includes("tokens     15,300 in (cache read 4,000, write 1,000), 2,530 out, 3 request(s)"),
        text.join("\n"),
      );
      assert.ok(text.includes("cost       $0.0725 (+ 1 request(s) of models with unknown prices)"), text.join("\n"));
    }));

  test("show finds a session by full id, lower-case id, unique prefix and exact title, from any directory", () =>
    withWorkspace(async (ws, dir) => {
      const target = await newSession(ws, ["-t", "the one"]);
      const other = await newSession(ws, ["-t", "another"]);
      const prefix = target.id.slice(0, commonPrefix(target.id, other.id).length + 1);
      const elsewhere = join(dir, "nested");
      mkdirSync(elsewhere);
      for (const ref of [target.id, target.id.toLowerCase(), prefix, prefix.toLowerCase(), "the one"]) {
        const shown = await ok(ws, ["sessions", "show", ref], { cwd: elsewhere });
        assert.match(shown, new RegExp(`^id {9}${target.id}\ntitle {6}the one\n`), `ref ${ref}`);
      }
    }));

  test("an unknown session is exit 2 and lists the closest ones", () =>
    withWorkspace(async (ws) => {
      const refactor = await newSession(ws, ["-t", "refactor parser"]);
      await newSession(ws, ["-t", "write docs"]);
      const { stderr } = await usage(ws, ["sessions", "show", "refactor parsr"]);
      assert.match(stderr, /no session matches "refactor parsr"; closest:\n/);
      assert.match(stderr, new RegExp(`  ${refactor.id}  refactor parser  `));
      assert.doesNotMatch(stderr, /write docs/);

      // One character off at the end of the id: still listed as the likely one.
      const typo = `${refactor.id.slice(0, -1)}${refactor.id.endsWith("Z") ? "Y" : "Z"}`;
      const typoError = (await usage(ws, ["sessions", "show", typo])).stderr;
      assert.match(typoError, new RegExp(`no session matches "${typo}"; closest:\n  ${refactor.id}  refactor parser`));
    }));

  test("a mistyped id prefix lists the session it nearly names; a word matching nothing lists recent ones", () =>
    withWorkspace(async (ws) => {
      const first = await newSession(ws, ["-t", "first"]);
      const second = await newSession(ws, ["-t", "second"]);
      // The first 16 characters with the last one changed to what no session has there.
      const start = first.id.slice(0, 15);
      const free = [..."0123456789ABCDEFGHJKMNPQRSTVWXYZ"].find(
        (c) => ![first.id, second.id].some((id) => id.startsWith(`${start}${c}`)),
      );
      const typo = `${start}${free}`;
      const typoError = (await usage(ws, ["sessions", "show", typo])).stderr;
      assert.match(typoError, new RegExp(`^bosun: no session matches "${typo}"; closest:\n`));
      assert.match(typoError, new RegExp(`  ${first.id}  first  `));

      const { stderr } = await usage(ws, ["sessions", "show", "banana"]);
      assert.match(stderr, /^bosun: no session matches "banana"; recent:\n/);
      // Newest first.
      assert.deepEqual(
        stderr
          .trimEnd()
          .split("\n")
          .slice(1)
          .map((line) => line.trim().split("  ")[0]),
        [second.id, first.id],
      );
    }));

  test("with no sessions at all, any ref is exit 2 and says there are none", () =>
    withWorkspace(async (ws) => {
      const { stderr } = await usage(ws, ["sessions", "show", "anything"]);
      assert.equal(stderr, 'bosun: no session matches "anything"; there are no sessions yet\n');
    }));

  test("an ambiguous prefix and a shared title are exit 2 and list every candidate", () =>
    withWorkspace(async (ws) => {
      const a = await newSession(ws, ["-t", "same"]);
      const b = await newSession(ws, ["-t", "same"]);
      const prefix = commonPrefix(a.id, b.id);
      assert.ok(prefix.length > 0);

      const ambiguous = (await usage(ws, ["sessions", "show", prefix])).stderr;
      assert.match(ambiguous, new RegExp(`"${prefix}" matches 2 sessions; give more of the id`));
      assert.match(ambiguous, new RegExp(a.id));
      assert.match(ambiguous, new RegExp(b.id));

      const shared = (await usage(ws, ["sessions", "show", "same"])).stderr;
      assert.match(shared, /"same" is the title of 2 sessions; use an id/);
      assert.match(shared, new RegExp(`${a.id}  same`));
      assert.match(shared, new RegExp(`${b.id}  same`));

      // Neither was touched by the failed lookups.
      assert.equal((await exportJson(ws, a.id)).events.length, 3);
    }));
});

describe("bosun sessions delete", { concurrency: 4 }, () => {
  test("deletes one session and its events; afterwards it cannot be found", () =>
    withWorkspace(async (ws) => {
      const gone = await newSession(ws, ["-t", "doomed"]);
      const kept = await newSession(ws, ["-t", "kept"]);
      const keptBefore = await exportJson(ws, kept.id);

      assert.equal(await ok(ws, ["sessions", "delete", "doomed", "--yes"]), `deleted ${gone.id} (doomed)\n`);
      assert.match((await usage(ws, ["sessions", "show", gone.id])).stderr, /no session matches/);
      await usage(ws, ["sessions", "delete", gone.id]);
      assert.deepEqual(
        (await listJson(ws, ["--all"])).map((s) => s.id),
        [kept.id],
      );
      assert.deepEqual(await exportJson(ws, kept.id), keptBefore);
      withStore(ws, (store) => assert.deepEqual(store.events(gone.id), []));
    }));

  test("an untitled session is deleted by its full id, in either case, without --yes", () =>
    withWorkspace(async (ws) => {
      const s = await newSession(ws);
      const t = await newSession(ws);
      assert.equal(await ok(ws, ["sessions", "delete", s.id.toLowerCase()]), `deleted ${s.id}\n`);
      assert.equal(await ok(ws, ["sessions", "delete", ` ${t.id} `]), `deleted ${t.id}\n`);
      assert.deepEqual(await listJson(ws, ["--all"]), []);
    }));

  test("a title or an id prefix deletes nothing without --yes, and says what it matched", () =>
    withWorkspace(async (ws, dir) => {
      const target = await newSession(ws, ["-t", "doomed"]);
      const other = await newSession(ws, ["-t", "kept"]);
      const prefix = target.id.slice(0, commonPrefix(target.id, other.id).length + 1);
      const before = await ok(ws, ["sessions", "--all", "--json"]);
      const events = await ok(ws, ["sessions", "export", target.id]);

      assert.equal(
        (await usage(ws, ["sessions", "delete", "doomed"])).stderr,
        `bosun: "doomed" is the title of session ${target.id} (doomed); nothing deleted: give the full id, or add --yes to delete it\n`,
      );
      assert.equal(
        (await usage(ws, ["sessions", "delete", prefix.toLowerCase()])).stderr,
        `bosun: "${prefix.toLowerCase()}" is an id prefix of session ${target.id} (doomed); nothing deleted: give the full id, or add --yes to delete it\n`,
      );
      assert.equal(await ok(ws, ["sessions", "--all", "--json"]), before);
      assert.equal(await ok(ws, ["sessions", "export", target.id]), events);

      // With --yes (or -y) the same refs delete; a lookup that fails still deletes nothing.
      assert.equal(await ok(ws, ["sessions", "delete", prefix, "-y"]), `deleted ${target.id} (doomed)\n`);
      await usage(ws, ["sessions", "delete", "nothing-like-it", "--yes"]);
      assert.deepEqual(
        (await listJson(ws, [], dir)).map((s) => s.id),
        [other.id],
      );
      assert.equal(await ok(ws, ["sessions", "delete", "kept", "--yes"]), `deleted ${other.id} (kept)\n`);
      assert.deepEqual(await listJson(ws, ["--all"]), []);
    }));
});

describe("bosun sessions export / import", { concurrency: 4 }, () => {
  /** A session with a log worth round-tripping: decisions, odd data, many events. */
  async function richSession(ws: Workspace): Promise<{ id: string }> {
    const s = await newSession(ws, ["-t", "rich ✓"]);
    withStore(ws, (store) => {
      // Real event types only: an import checks every event against its type's schema.
      for (let i = 0; i < 40; i++) {
        const text = `line ${i}\n\t"quoted" — ünïcödé 🚢 ${i / 3}`;
        if (i % 2) store.append(s.id, "message.user", { text, files: [{ path: `f${i}.txt`, content: text }] });
        else store.append(s.id, "message.notice", { text, kind: "environment" });
      }
      store.append(s.id, "turn.ended", { status: "done", steps: 0 });
    });
    return s;
  }

  test("export -> delete -> import restores the session with every event unchanged", () =>
    withWorkspace(async (ws, dir) => {
      const s = await richSession(ws);
      const printed = await ok(ws, ["sessions", "export", s.id]);
      const file = join(dir, "exports", "s.json");
      mkdirSync(join(dir, "exports"));
      assert.equal(await ok(ws, ["sessions", "export", "rich ✓", "-o", file]), "");
      assert.equal(readFileSync(file, "utf8"), printed, "-o writes exactly what stdout gets");

      const before = JSON.parse(printed) as ExportJson;
      assert.equal(before.format, "bosun.session/1");
      assert.deepEqual(before.session, exported((await listJson(ws))[0]));
      assert.equal(before.events.length, 3 + 41);
      assert.deepEqual(
        before.events.map((e) => e.seq),
        Array.from({ length: 44 }, (_, i) => i + 1),
      );
      for (const e of before.events) assert.match(e.at, ISO);

      await ok(ws, ["sessions", "delete", s.id]);
      assert.deepEqual(await listJson(ws, ["--all"]), []);

      assert.equal(await ok(ws, ["sessions", "import", file]), `imported ${s.id} (rich ✓)\n`);
      assert.deepEqual(await exportJson(ws, s.id), before);
      assert.equal(await ok(ws, ["sessions", "export", s.id]), printed, "byte for byte");
      assert.deepEqual((await listJson(ws)).map(exported), [before.session]);
    }));

  test("import reads stdin with '-', into another bosun home", () =>
    withWorkspace(async (ws) => {
      const s = await richSession(ws);
      const printed = await ok(ws, ["sessions", "export", s.id]);
      await withWorkspace(async (other) => {
        assert.equal(await ok(other, ["sessions", "import", "-"], { input: printed }), `imported ${s.id} (rich ✓)\n`);
        assert.equal(await ok(other, ["sessions", "export", s.id]), printed);
      });
    }));

  test("importing the same file twice is refused the second time and changes nothing", () =>
    withWorkspace(async (ws, dir) => {
      const s = await richSession(ws);
      const file = join(dir, "s.json");
      await ok(ws, ["sessions", "export", s.id, "-o", file]);
      const before = await ok(ws, ["sessions", "export", s.id]);

      const { stderr } = await usage(ws, ["sessions", "import", file]);
      assert.match(stderr, new RegExp(`session ${s.id} already exists`));
      assert.equal(await ok(ws, ["sessions", "export", s.id]), before);

      await ok(ws, ["sessions", "delete", s.id]);
      await ok(ws, ["sessions", "import", file]);
      await usage(ws, ["sessions", "import", file]);
      assert.equal((await listJson(ws, ["--all"])).length, 1);
      assert.equal(await ok(ws, ["sessions", "export", s.id]), before);
    }));

  test("the same file imported by several processes at once lands exactly once", () =>
    withWorkspace(async (ws, dir) => {
      const s = await richSession(ws);
      const file = join(dir, "s.json");
      await ok(ws, ["sessions", "export", s.id, "-o", file]);
      const before = await ok(ws, ["sessions", "export", s.id]);
      await ok(ws, ["sessions", "delete", s.id]);

      const results = await Promise.all(Array.from({ length: 4 }, () => ws.run(["sessions", "import", file])));
      const codes = results.map((r) => r.code).sort();
      assert.deepEqual(codes, [0, 2, 2, 2], results.map((r) => r.stderr).join("\n"));
      for (const r of results.filter((r) => r.code === 2)) {
        assert.match(r.stderr, new RegExp(`^bosun: session ${s.id} already exists`));
      }
      assert.equal(await ok(ws, ["sessions", "export", s.id]), before);
    }));

  test("a malformed import file is exit 2 and writes nothing", () =>
    withWorkspace(async (ws, dir) => {
      const s = await richSession(ws);
      const good = JSON.parse(await ok(ws, ["sessions", "export", s.id])) as ExportJson;
      await ok(ws, ["sessions", "delete", s.id]);
      const stranger = await newSession(ws, ["-t", "bystander"]);
      const before = await ok(ws, ["sessions", "--all", "--json"]);
      const bystander = await ok(ws, ["sessions", "export", stranger.id]);

      const cases: [string, string, RegExp][] = [
        ["not-json.json", "{ this is not json", /not-json\.json: cannot read a session export/],
        ["empty.json", "", /empty\.json: cannot read a session export/],
        ["array.json", "[]", /is not a bosun session export \(bosun\.session\/1\)/],
        ["format.json", JSON.stringify({ ...good, format: "other/1" }), /format/],
        ["no-events.json", JSON.stringify({ format: good.format, session: good.session }), /events/],
        [
          "gap.json",
          JSON.stringify({ ...good, events: good.events.filter((e) => e.seq !== 10) }),
          /events must be numbered 1\.\.n in order; event 10 has seq 11/,
        ],
        [
          "bad-date.json",
          JSON.stringify({ ...good, events: good.events.map((e) => (e.seq === 44 ? { ...e, at: "soon" } : e)) }),
          /"soon" is not a date/,
        ],
      ];
      cases.push(["missing.json", "", /missing\.json: cannot read a session export/]);
      // Refused concurrently: none of them may write, whatever the others are doing.
      await Promise.all(
        cases.map(async ([name, content, message]) => {
          const path = name === "missing.json" ? join(dir, name) : ws.write(name, content);
          const { stderr } = await usage(ws, ["sessions", "import", path]);
          assert.match(stderr, message, name);
        }),
      );
      assert.match((await usage(ws, ["sessions", "import", "-"], { input: "nope" })).stderr, /stdin: cannot read/);

      assert.equal(await ok(ws, ["sessions", "--all", "--json"]), before);
      assert.equal(await ok(ws, ["sessions", "export", stranger.id]), bystander);
      await usage(ws, ["sessions", "show", s.id]);
    }));

  test("a malformed import into a fresh home creates no session", () =>
    withWorkspace(async (ws) => {
      await usage(ws, ["sessions", "import", "-"], { input: '{"format":"bosun.session/1"}' });
      assert.deepEqual(await listJson(ws, ["--all"]), []);
    }));

  test("export -o into a folder that does not exist is exit 2 naming the file, and writes nothing", () =>
    withWorkspace(async (ws, dir) => {
      const s = await newSession(ws, ["-t", "exported"]);
      const file = join(dir, "no", "such", "folder", "s.json");
      const { stderr } = await usage(ws, ["sessions", "export", s.id, "-o", file]);
      assert.equal(
        stderr,
        `bosun: cannot write ${file}: the folder ${join(dir, "no", "such", "folder")} does not exist\n`,
      );
      assert.equal(existsSync(join(dir, "no")), false);

      // A folder where the file should go: refused the same way, and no temporary file is left.
      mkdirSync(join(dir, "taken"));
      const taken = (await usage(ws, ["sessions", "export", s.id, "-o", join(dir, "taken")])).stderr;
      assert.equal(taken, `bosun: cannot write ${join(dir, "taken")}: it is a folder\n`);
      assert.deepEqual(readdirSync(join(dir, "taken")), []);
      assert.deepEqual(
        readdirSync(dir).filter((name) => name.endsWith(".tmp")),
        [],
      );
    }));

  test("export -o replaces an earlier file whole and leaves no temporary file", () =>
    withWorkspace(async (ws, dir) => {
      const s = await newSession(ws, ["-t", "exported"]);
      const out = join(dir, "out");
      mkdirSync(out);
      const file = join(out, "s.json");
      writeFileSync(file, "an older, much longer file that must not leave a tail behind ".repeat(200));
      assert.equal(await ok(ws, ["sessions", "export", s.id, "--output", "out/s.json"]), "");
      assert.equal(readFileSync(file, "utf8"), await ok(ws, ["sessions", "export", s.id]));
      assert.deepEqual(readdirSync(out), ["s.json"]);
    }));

  test("an import whose decision events bosun could not have recorded is exit 2 and writes nothing", () =>
    withWorkspace(async (ws) => {
      const s = await richSession(ws);
      const good = JSON.parse(await ok(ws, ["sessions", "export", s.id])) as ExportJson;
      await ok(ws, ["sessions", "delete", s.id]);
      const decision = good.events.find((e) => e.type === "decision") ?? assert.fail("no decision recorded");
      const replace = (data: unknown) =>
        JSON.stringify({ ...good, events: good.events.map((e) => (e.seq === decision.seq ? { ...e, data } : e)) });
      const data = decision.data as Record<string, unknown>;
      const cases: [string, RegExp][] = [
        [replace(null), /data: expected object, not null/],
        [replace({ ...data, reasons: undefined }), /data\.reasons: missing/],
        [replace({ ...data, reasons: [null] }), /data\.reasons\[0\]: expected object, not null/],
        [replace({ ...data, seat: "no.such.seat" }), /data\.seat: "no\.such\.seat" is not a seat this bosun declares/],
        [replace({ ...data, holder: "model" }), /data\.holder: seat \S+ cannot be held by "model"/],
      ];
      for (const [input, problem] of cases) {
        const { stderr } = await usage(ws, ["sessions", "import", "-"], { input });
        assert.match(stderr, new RegExp(`^bosun: stdin: event ${decision.seq} \\(decision\\): `));
        assert.match(stderr, problem);
      }
      assert.deepEqual(await listJson(ws, ["--all"]), []);
      await usage(ws, ["why", s.id]);

      // The untouched export imports, and `why` reads its decisions back.
      await ok(ws, ["sessions", "import", "-"], { input: JSON.stringify(good) });
      assert.match(await ok(ws, ["why", s.id, "--json"]), /"seat": "session\.target"/);
    }));

  test("an import whose parent is not here is refused until the parent is imported", () =>
    withWorkspace(async (ws) => {
      const parent = await newSession(ws, ["-t", "parent"]);
      const child = await newSession(ws, ["-t", "child"]);
      const parentFile = await ok(ws, ["sessions", "export", parent.id]);
      const childJson = await exportJson(ws, child.id);
      const childFile = JSON.stringify({ ...childJson, session: { ...childJson.session, parent: parent.id } });
      await ok(ws, ["sessions", "delete", parent.id]);
      await ok(ws, ["sessions", "delete", child.id]);

      const { stderr } = await usage(ws, ["sessions", "import", "-"], { input: childFile });
      assert.equal(
        stderr,
        `bosun: stdin: its parent session ${parent.id} does not exist here; import the parent first\n`,
      );
      assert.deepEqual(await listJson(ws, ["--all"]), []);

      await ok(ws, ["sessions", "import", "-"], { input: parentFile });
      await ok(ws, ["sessions", "import", "-"], { input: childFile });
      assert.equal((await sessionJson(ws, child.id)).parent, parent.id);
    }));

  test("an import whose updated time is before its created time is exit 2", () =>
    withWorkspace(async (ws) => {
      const s = await newSession(ws);
      const file = await exportJson(ws, s.id);
      await ok(ws, ["sessions", "delete", s.id]);
      const session = { ...file.session, updated: "2000-01-01T00:00:00.000Z" };
      const { stderr } = await usage(ws, ["sessions", "import", "-"], { input: JSON.stringify({ ...file, session }) });
      assert.match(
        stderr,
        /^bosun: stdin: session\.updated \(2000-01-01T00:00:00\.000Z\) is earlier than session\.created/,
      );
      assert.deepEqual(await listJson(ws, ["--all"]), []);
    }));

  test("export of an unknown session is exit 2 and writes no file", () =>
    withWorkspace(async (ws, dir) => {
      await newSession(ws);
      const file = join(dir, "out.json");
      await usage(ws, ["sessions", "export", "nope", "-o", file]);
      assert.equal(existsSync(file), false);
    }));
});

describe("bosun sessions fork", { concurrency: 4 }, () => {
  test("copies the events into a new session and leaves the original unchanged", () =>
    withWorkspace(async (ws, dir) => {
      const original = await newSession(ws, ["-t", "original"]);
      withStore(ws, (store) => {
        for (let i = 0; i < 5; i++) store.append(original.id, "message", { i, text: `m${i}` });
      });
      const before = await exportJson(ws, original.id);

      const forkId = (await ok(ws, ["sessions", "fork", original.id.toLowerCase(), "--title", "copy"])).trim();
      assert.match(forkId, ULID);
      const fork = await sessionJson(ws, forkId);
      assert.notEqual(fork.id, original.id);
      assert.equal(fork.title, "copy");
      assert.equal(fork.directory, dir);

      assert.deepEqual(await exportJson(ws, original.id), before, "the original is untouched");

      const copy = await exportJson(ws, fork.id);
      assert.deepEqual(copy.session, exported(fork));
      assert.deepEqual(
        copy.events.map((e) => e.seq),
        copy.events.map((_, i) => i + 1),
      );
      const [created, ...rest] = copy.events;
      assert.equal(created?.type, "session.created");
      assert.equal((created?.data as { forked_from?: string } | undefined)?.forked_from, original.id);
      // Every event of the original after its own session.created, in order, then the fork's
      // own decisions about how it was opened.
      const copied = before.events.slice(1);
      assert.deepEqual(
        rest.slice(0, copied.length).map((e) => [e.type, e.data]),
        copied.map((e) => [e.type, e.data]),
      );
      assert.ok(rest.slice(copied.length).every((e) => e.type === "decision"));
      assert.ok(rest.length > copied.length, "the fork records how it was opened");

      assert.deepEqual(
        (await listJson(ws)).map((s) => s.id),
        [fork.id, original.id],
      );
    }));

  test("a fork without --title is named after the original; fork prints the new id", () =>
    withWorkspace(async (ws) => {
      const original = await newSession(ws, ["-t", "base"]);
      const id = (await ok(ws, ["sessions", "fork", "base"])).trim();
      assert.match(id, ULID);
      assert.notEqual(id, original.id);
      assert.equal((await sessionJson(ws, id)).title, "base (fork)");
      // Forking again by title now finds one session only, because the fork has its own title.
      assert.match((await ok(ws, ["sessions", "fork", "base"])).trim(), ULID);
      assert.equal((await listJson(ws)).length, 3);
    }));

  test("forking an unknown session is exit 2 and creates nothing", () =>
    withWorkspace(async (ws) => {
      await newSession(ws, ["-t", "only"]);
      assert.match((await usage(ws, ["sessions", "fork", "nothing-like-it"])).stderr, /no session matches/);
      assert.equal((await listJson(ws, ["--all"])).length, 1);
    }));
});

describe("bosun sessions start-up", { concurrency: 4 }, () => {
  /**
   * Runs bosun with a module hook that logs every ES module it loads, and returns their paths.
   * (better-sqlite3 is loaded with require and so is not in the log; it is wanted anyway.)
   */
  async function loaded(ws: Workspace, args: string[]): Promise<string[]> {
    const log = join(ws.home, `loaded-${args.join("-").replace(/\W+/g, "_")}.txt`);
    const hooks = join(ws.home, "hooks.mjs");
    const register = join(ws.home, "register.mjs");
    writeFileSync(
      hooks,
      `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) { appendFileSync(log, url + "\\n"); return next(url, context); }
`,
    );
    writeFileSync(
      register,
      `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { log: process.env.LOAD_LOG } });
`,
    );
    writeFileSync(log, "");
    await ok(ws, args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}`, LOAD_LOG: log } });
    return readFileSync(log, "utf8").split("\n").filter(Boolean).flatMap(sourcesOf);
  }

  /**
   * The sources a loaded file holds: the CLI is a bundle (scripts/bundle-cli.ts), so a chunk of it
   * stands for the sources esbuild put in it (dist/cli/chunks/inputs.json), named as tsc's output
   * would be (`src/config/load.ts` → `/dist/config/load.js`), so the patterns read the same either way.
   */
  function sourcesOf(url: string): string[] {
    const chunk = /\/dist\/cli\/(main\.js|chunks\/[^/]+\.js)$/.exec(url)?.[1];
    if (!chunk) return [url];
    const inputs = JSON.parse(readFileSync(join(dirname(BOSUN_BIN), "chunks", "inputs.json"), "utf8"));
    return (inputs[chunk] as string[]).map((input) => `/${input.replace(/^src\//, "dist/").replace(/\.tsx?$/, ".js")}`);
  }

  const HEAVY = [/\/node_modules\/zod\//, /\/config\/load\.js$/, /\/store\/transfer\.js$/, /\/session\/open\.js$/];

  test("listing, show and delete load neither zod nor the config loader", () =>
    withWorkspace(async (ws) => {
      const a = await newSession(ws, ["-t", "a"]);
      const b = await newSession(ws, ["-t", "b"]);
      const cases: [string[], RegExp[]][] = [
        [["sessions"], [...HEAVY, /\/seats\//]],
        [
          ["sessions", "--all", "--json"],
          [...HEAVY, /\/seats\//],
        ],
        [["sessions", "show", a.id], HEAVY],
        [
          ["sessions", "delete", b.id],
          [...HEAVY, /\/seats\//],
        ],
      ];
      for (const [args, unwanted] of cases) {
        const urls = await loaded(ws, args);
        assert.ok(
          urls.some((url) => url.endsWith("/cli/commands/sessions.js")),
          `the hook saw nothing for ${args}`,
        );
        for (const pattern of unwanted) {
          assert.deepEqual(
            urls.filter((url) => pattern.test(url)).slice(0, 3),
            [],
            `bosun ${args.join(" ")} loaded ${pattern}`,
          );
        }
      }
      // The hook does see them where they are needed.
      assert.ok((await loaded(ws, ["sessions", "export", a.id])).some((url) => HEAVY[0]?.test(url)));
    }));
});
