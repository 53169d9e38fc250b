import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SEATS } from "../../src/seats/catalog.js";
import { formatReason } from "../../src/seats/render.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { createWorkspace, type Workspace } from "../support/workspace.js";

interface JsonDecision {
  seq: number;
  seat: string;
  holder: string;
  answer: unknown;
  reasons: Array<{ rule: string; source?: string; detail?: string; decisive?: boolean }>;
  subject: unknown;
  at: string;
  copiedFrom: string | null;
}

describe("bosun why", () => {
  let ws: Workspace;
  let base: string;
  let fork: string;
  before(async () => {
    ws = createWorkspace();
    ws.write("bosun.json", '{ "model": "a/b" }');
    base = (await ws.run(["sessions", "new", "--title", "base"])).stdout.trim();
    fork = (await ws.run(["sessions", "fork", "base"])).stdout.trim();
  });
  after(() => ws.cleanup());

  it("shows a session without turns as its set-up, folded into one line; --all lists each decision", async () => {
    const result = await ws.run(["why", base], { env: { COLUMNS: "100" } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "set-up · new session: 1 decision (--all)\n");
    const all = await ws.run(["why", base, "--all"], { env: { COLUMNS: "100" } });
    const lines = all.stdout.trimEnd().split("\n");
    assert.match(lines[0] ?? "", /^set-up · \d{4}-\d\d-\d\d \d\d:\d\d · new session$/);
    assert.match(
      lines[1] ?? "",
      /^ {2}session\.target +code +\{"mode":"new"\} +default: no --session, --continue or --fork given: start a$/,
    );
    assert.match(lines[2] ?? "", /^ +new session$/);
    assert.match(lines[3] ?? "", /^ {2}config\.load +code +default:built-in, project:.*bosun\.json$/);
    assert.match(lines[4] ?? "", /^ {20,}every layer that exists is read, lowest first: 2 read;/);
    for (const line of lines) assert.ok(line.length <= 100, line);
  });

  it("prints the ledger as JSON with seat, holder, answer, reasons, subject, at", async () => {
    const result = await ws.run(["why", fork, "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const decisions = JSON.parse(result.stdout) as JsonDecision[];
    // The fork carries the original's two decisions, then its own two.
    assert.deepEqual(
      decisions.map((d) => `${d.seat}:${d.holder}`),
      ["session.target:code", "config.load:code", "session.target:person", "config.load:code"],
    );
    const forked = decisions[2] as JsonDecision;
    assert.deepEqual(forked.answer, { mode: "fork", from: base });
    // Recorded as the person said it: through `bosun sessions fork`, not a flag they never typed.
    assert.ok(forked.reasons.some((r) => r.source === "bosun sessions fork"));
    for (const d of decisions) {
      assert.deepEqual(Object.keys(d).sort(), [
        "answer",
        "at",
        "copiedFrom",
        "holder",
        "reasons",
        "seat",
        "seq",
        "subject",
      ]);
      assert.ok(!Number.isNaN(Date.parse(d.at)));
    }
    // The first two came with the copy, at the times they happened in the original.
    assert.deepEqual(
      decisions.map((d) => d.copiedFrom),
      [base, base, null, null],
    );
    const original = JSON.parse((await ws.run(["why", base, "--json"])).stdout) as JsonDecision[];
    assert.deepEqual(
      decisions.slice(0, 2).map((d) => d.at),
      original.map((d) => d.at),
    );
    const text = (await ws.run(["why", fork], { env: { COLUMNS: "120" } })).stdout.trim().split("\n");
    assert.deepEqual(text, [
      `set-up · new session · [copied from ${base}]: 1 decision (--all)`,
      "",
      `set-up · fork of ${base}: 1 decision (--all)`,
    ]);
  });

  it("filters by seat glob", async () => {
    const only = JSON.parse((await ws.run(["why", fork, "--json", "--seat", "session.*"])).stdout) as JsonDecision[];
    assert.deepEqual(
      only.map((d) => d.seat),
      ["session.target", "session.target"],
    );
    // A glob naming seats that decided nothing here is no error: the ledger is just empty for it.
    const none = await ws.run(["why", fork, "--seat", "model.*"]);
    assert.equal(none.code, 0);
    assert.equal(none.stdout.trim(), 'no decisions for seats matching "model.*"');
    // With a glob, the set-up decisions it names are shown, not folded.
    const text = await ws.run(["why", fork, "--seat", "session.*"], { env: { COLUMNS: "120" } });
    assert.equal(text.stdout.match(/^ {2}session\.target /gm)?.length, 2, text.stdout);
  });

  it("refuses a --seat glob that names no seat with exit 2, listing the seats by stage within the width", async () => {
    for (const args of [
      ["why", fork, "--seat", "modle.*"],
      ["why", fork, "--json", "--seat", "call.permision"],
    ]) {
      const result = await ws.run(args, { env: { COLUMNS: "60" } });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, "");
      const [first, ...listing] = result.stderr.trimEnd().split("\n");
      assert.match(first ?? "", /^bosun: no seat matches "(modle\.\*|call\.permision)"; the seats are:$/);
      for (const line of listing) assert.ok(line.length <= 60, line);
      const listed = listing.join("\n");
      for (const seat of SEATS) {
        const [stage, name] = seat.id.split(".");
        assert.match(listed, new RegExp(`^ {2}${stage}\\.\\*[\\s\\S]*\\b${name}\\b`, "m"), seat.id);
      }
    }
  });

  it("finds the session by title and refuses an unknown one with exit 2", async () => {
    const byTitle = await ws.run(["why", "base", "--json"]);
    assert.equal((JSON.parse(byTitle.stdout) as JsonDecision[]).length, 2);
    const unknown = await ws.run(["why", "bsae"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no session matches "bsae"; closest:\n {2}\S+ {2}base/);
    assert.equal(unknown.stdout, "");
  });
});

describe("bosun why: a session with turns, from anywhere in its repository", () => {
  const ESC = String.fromCharCode(27);
  const task =
    "Read math.js and tell me what add() does, then list the files here, and say whether anything looks wrong";
  let s: Scenario;
  let id: string;
  before(async () => {
    s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { id: "c1", name: "read", arguments: { path: "math.js" } },
              { id: "c2", name: "list", arguments: {} },
            ],
          },
        },
        {
          match: { request: 2 },
          reply: { toolCalls: [{ id: "c3", name: "shell", arguments: { command: "node --version" } }] },
        },
        { match: { request: 3 }, reply: { text: "add() subtracts." } },
        { match: { request: 4 }, reply: { text: "Still subtracts." } },
      ],
    });
    s.ws.write("math.js", "export function add(a, b) {\n  return a - b;\n}\n");
    s.ws.write("sub/dir/.keep", "");
    assert.equal((await s.run(["run", "--auto", task])).code, 0);
    assert.equal((await s.run(["run", "-c", "--auto", "and again"])).code, 0);
    id = s.latest().id;
  });
  after(() => s.close());

  const why = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    s.ws.run(["why", ...args], { cwd: join(s.ws.dir, "sub", "dir"), env });

  for (const width of [80, 160]) {
    it(`groups by run, turn, step and call, every line within COLUMNS=${width}`, async () => {
      const result = await why([id], { COLUMNS: String(width) });
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.trimEnd().split("\n");
      for (const line of lines) assert.ok(line.length <= width, `${line.length} > ${width}: ${line}`);
      const headings = lines
        .filter((l) => /^(set-up|turn)|^ {2}step|^ {4}call/.test(l))
        .map((l) => l.replace(/:.*/, ""));
      assert.deepEqual(headings, [
        "set-up · new session",
        `turn 1 · ${width === 160 ? task : task.slice(0, task.lastIndexOf(" ", width - 10)).concat("…")}`.slice(
          0,
          width,
        ),
        "  step 1",
        "    call c1",
        "    call c2",
        "  step 2",
        "    call c3",
        "  step 3",
        "set-up · continued",
        "turn 2 · and again",
        "  step 1",
      ]);
      assert.ok(lines.includes("    call c1: read math.js"));
      assert.ok(lines.includes("    call c3: shell node --version"));
      // Each decision sits under its call, the decisive reason beside it, wrapped at words.
      const decisions = JSON.parse((await why([id, "--json"])).stdout) as JsonDecision[];
      const sandbox = decisions.find(
        (d) => d.seat === "exec.sandbox" && (d.subject as { call?: string })?.call === "c3",
      );
      const expected = formatReason(sandbox?.reasons.find((r) => r.decisive) ?? sandbox?.reasons[0] ?? { rule: "?" });
      const row = lines.findIndex((l) => /^ {6}exec\.sandbox +code +\S+ +\S/.test(l));
      assert.ok(row > lines.indexOf("    call c3: shell node --version"), result.stdout);
      const column = (lines[row] ?? "").indexOf(expected.split(" ")[0] ?? "");
      const reason = [lines[row] ?? ""];
      for (const next of lines.slice(row + 1)) {
        if (next.length <= column || next.slice(0, column).trim() !== "") break;
        reason.push(next);
      }
      assert.equal(reason.map((l) => l.slice(column)).join(" "), expected);
      assert.ok(reason.length >= (width === 80 ? 3 : 1) && reason.length <= (width === 80 ? 8 : 2), reason.join("\n"));
      assert.ok(!result.stdout.includes(ESC), "no colour when piped");
    });
  }

  it("shows this repository's latest session with no argument or --last, from a subfolder", async () => {
    const named = await why([id], { COLUMNS: "100" });
    const bare = await why([], { COLUMNS: "100" });
    const last = await why(["--last"], { COLUMNS: "100" });
    assert.equal(bare.code, 0, bare.stderr);
    assert.equal(bare.stdout, named.stdout);
    assert.equal(last.stdout, named.stdout);
    assert.deepEqual(
      JSON.parse((await why(["--last", "--json"])).stdout),
      JSON.parse((await why([id, "--json"])).stdout),
    );
    const both = await why([id, "--last"]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give a session or --last, not both/);
    // Elsewhere, no session belongs there: a usage error naming the folder, not another repo's session.
    const elsewhere = await s.ws.run(["why"], { cwd: s.ws.home });
    assert.equal(elsewhere.code, 2);
    assert.match(elsewhere.stderr, /^bosun: no session in \S+ yet; name one: bosun why <session>/);
  });

  it("--all shows each run's set-up in full; FORCE_COLOR colours the holders", async () => {
    const all = await why(["--all"], { COLUMNS: "120" });
    assert.equal(all.stdout.match(/^ {2}config\.load +code /gm)?.length, 2, all.stdout);
    assert.equal(all.stdout.match(/^ {2}model\.select +\w+ +scripted\/test-model/gm)?.length, 2, all.stdout);
    const coloured = await why([], { COLUMNS: "120", FORCE_COLOR: "1" });
    assert.ok(coloured.stdout.includes(`${ESC}[33mmodel${ESC}[39m`), coloured.stdout);
    const none = await why([], { COLUMNS: "120", FORCE_COLOR: "1", NO_COLOR: "1" });
    assert.ok(!none.stdout.includes(ESC));
  });
});
