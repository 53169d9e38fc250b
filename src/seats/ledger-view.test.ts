import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Holder, RecordedDecision } from "../contracts/decisions.js";
import { textWidth } from "../util/wrap.js";
import type { LedgerEntry } from "./ledger-group.js";
import { renderLedger } from "./ledger-view.js";

const ESC = String.fromCharCode(27);
let seq = 1;
function decision(
  seat: string,
  holder: Holder,
  answer: unknown,
  reason: string,
  subject?: { step: number; call?: string },
  copiedFrom: string | null = null,
): LedgerEntry {
  seq++;
  const recorded: RecordedDecision = {
    seq,
    at: "2026-12-02T03:20:00.000Z",
    seat,
    holder,
    answer,
    reasons: [
      { rule: "considered", detail: "not this one" },
      { rule: reason, decisive: true },
    ],
    ...(subject ? { subject } : {}),
  };
  return { kind: "decision", decision: recorded, copiedFrom };
}

const LONG =
  'shell:npm run build && npm test -- --reporter=spec: ask — default rule shell "*" → ask, last match (built-in permission.shell), and no saved approval, hook or policy said otherwise for this command in this repository';

function setUp(mode: string, copiedFrom: string | null = null): LedgerEntry[] {
  return [
    decision("session.target", mode === "new" ? "code" : "person", { mode }, `target ${mode}`, undefined, copiedFrom),
    decision("config.load", "code", ["default:built-in"], "every layer that exists is read", undefined, copiedFrom),
    decision("agent.select", "code", "build", "default agent: build", undefined, copiedFrom),
    decision("permission.mode", "code", "approve", "default mode: approve", undefined, copiedFrom),
    decision("model.select", "config", "anthropic/claude-sonnet-4-5", "config model", undefined, copiedFrom),
    decision("context.instructions", "code", [], "default: 0 loaded", undefined, copiedFrom),
    decision("context.skills", "code", [], "none found", undefined, copiedFrom),
  ];
}

/** Two runs: a new session with one turn (two steps, three calls, a steer), then a continued one. */
function ledger(): LedgerEntry[] {
  seq = 1;
  return [
    ...setUp("new"),
    { kind: "message", text: "Fix the failing build and then run the whole test suite, please, and report back" },
    decision("context.tools", "code", ["read", "shell"], "all offered", { step: 1 }),
    { kind: "calls", calls: [{ id: "c1", tool: "shell", input: { command: "npm run build && npm test" } }] },
    decision("call.permission", "code", "ask", LONG, { step: 1, call: "c1" }),
    decision("call.approval", "person", "allow-once", "the person answered: allow once", { step: 1, call: "c1" }),
    { kind: "message", text: "also check the docs" },
    {
      kind: "calls",
      calls: [
        { id: "c2", tool: "read", input: { path: "README.md" } },
        { id: "c3", tool: "read", input: { path: "docs/guide.md" } },
      ],
    },
    decision("call.permission", "code", "allow", "read:README.md: allow", { step: 2, call: "c2" }),
    decision("call.permission", "config", "allow", "read:docs/guide.md: allow (bosun.json:4)", { step: 2, call: "c3" }),
    decision("call.hook", "hook", "allow", "pre_tool hook said nothing", { step: 2, call: "c2" }),
    decision("turn.done", "model", "done", "ended without tool calls", { step: 3 }),
    { kind: "turn-end" },
    ...setUp("continue"),
    { kind: "message", text: "now the changelog" },
    decision("turn.done", "model", "done", "ended without tool calls", { step: 1 }),
    { kind: "turn-end" },
  ];
}

const plain = (width: number, more: Partial<Parameters<typeof renderLedger>[1]> = {}) =>
  renderLedger(ledger(), { width, color: false, all: false, ...more });

describe("the ledger view", () => {
  it("groups by turn, step and call; a message during a turn steers it and starts none", () => {
    const lines = plain(120);
    const headings = lines.filter((l) => /^\S/.test(l) || /^ {2}step/.test(l) || /^ {4}call/.test(l));
    assert.deepEqual(
      headings.map((l) => l.replace(/:.*$/, "")),
      [
        "set-up · new session",
        "turn 1 · Fix the failing build and then run the whole test suite, please, and report back",
        "  step 1",
        "    call c1",
        "  step 2",
        "    call c2",
        "    call c3",
        "  step 3",
        "set-up · continued",
        "turn 2 · now the changelog",
        "  step 1",
      ],
    );
    // A call is named by its tool and main argument; its decisions sit under it, in order.
    const c2 = lines.indexOf("    call c2: read README.md");
    assert.ok(c2 > 0, lines.join("\n"));
    assert.match(lines[c2 + 1] ?? "", /^ {6}call\.permission +code +allow +read:README\.md: allow$/);
    assert.match(lines[c2 + 2] ?? "", /^ {6}call\.hook +hook +allow +pre_tool hook said nothing$/);
    assert.equal(lines[c2 + 3], "    call c3: read docs/guide.md");
    // The decisive reason is shown, not the first one.
    assert.doesNotMatch(lines.join("\n"), /not this one/);
  });

  for (const width of [80, 160]) {
    it(`fits ${width} columns: aligned columns, the reason wrapped at words under its own column`, () => {
      const lines = plain(width);
      for (const line of lines) assert.ok(textWidth(line) <= width, `${textWidth(line)} > ${width}: ${line}`);
      const rows = lines.filter((l) => /^ {4,}[a-z]+\.[a-z_]+ {2,}/.test(l));
      const holderAt = new Set(rows.map((r) => r.search(/ (code|person|config|model|hook|policy) /) + 1));
      assert.equal(holderAt.size, 1, "every holder starts in the same column");
      const permission = lines.findIndex((l) => l.includes("call.permission") && l.includes(" ask "));
      const column = (lines[permission] ?? "").indexOf("shell:npm");
      const wrapped = [lines[permission] ?? ""];
      for (const next of lines.slice(permission + 1)) {
        if (!next.startsWith(" ".repeat(column)) || next[column] === " ") break;
        wrapped.push(next);
      }
      assert.ok(width === 160 ? wrapped.length >= 2 : wrapped.length >= 4, wrapped.join("\n"));
      // The reason's words come back whole and in order: none was cut at a line's end.
      assert.equal(wrapped.map((l) => l.slice(column)).join(" "), LONG);
    });
  }

  it("folds each run's set-up into one line naming model, mode and agent, and shows it all with `all`", () => {
    const folded = plain(160).filter((l) => l.startsWith("set-up"));
    assert.deepEqual(folded, [
      "set-up · new session: model anthropic/claude-sonnet-4-5 · mode approve · agent build · 3 more (--all)",
      "set-up · continued: model anthropic/claude-sonnet-4-5 · mode approve · agent build · 3 more (--all)",
    ]);
    // Code's other defaults are counted, never named, however wide the terminal.
    assert.deepEqual(
      plain(300).filter((l) => l.startsWith("set-up")),
      [
        "set-up · new session: model anthropic/claude-sonnet-4-5 · mode approve · agent build · 3 more (--all)",
        "set-up · continued: model anthropic/claude-sonnet-4-5 · mode approve · agent build · 3 more (--all)",
      ],
    );
    // Narrow: fewer named, the rest counted, still one line.
    const narrow = plain(80, { allHint: "/why --all" }).filter((l) => l.startsWith("set-up"));
    assert.equal(narrow.length, 2);
    assert.equal(narrow[0], "set-up · new session: model anthropic/claude-sonnet-4-5 · 5 more (/why --all)");
    assert.equal(
      plain(60).find((l) => l.startsWith("set-up")),
      "set-up · new session: 6 decisions (--all)",
    );

    const all = plain(120, { all: true });
    assert.match(all[0] ?? "", /^set-up · \d{4}-\d\d-\d\d \d\d:\d\d · new session$/);
    for (const seat of ["session.target", "config.load", "context.instructions", "context.skills"]) {
      assert.equal(all.filter((l) => l.startsWith(`  ${seat} `)).length, 2, `${seat} once per run`);
    }
    assert.ok(
      all.some((l) => /^ {2}context\.skills +code +none +none found$/.test(l)),
      all.join("\n"),
    );
  });

  it("colours holders, each its own colour, only when asked", () => {
    assert.ok(!plain(100).join("\n").includes(ESC));
    const coloured = renderLedger(ledger(), { width: 100, color: true, all: true }).join("\n");
    const colourOf = (holder: string) => coloured.match(new RegExp(`\\x1b\\[(\\d+)m${holder}\\x1b\\[39m`))?.[1];
    const colours = ["person", "code", "config", "model", "hook"].map(colourOf);
    assert.ok(colours.every(Boolean), String(colours));
    assert.equal(new Set(colours).size, colours.length);
    // Colour codes take no column: the uncoloured text is the plain view.
    assert.equal(coloured.replace(new RegExp(`${ESC}\\[\\d+m`, "g"), ""), plain(100, { all: true }).join("\n"));
  });

  it("marks what a fork copied from its parent: once on a section copied whole, else on the decision", () => {
    seq = 1;
    const forked: LedgerEntry[] = [
      ...setUp("new", "01PARENT"),
      { kind: "message", text: "first task" },
      decision("turn.done", "model", "done", "ended without tool calls", { step: 1 }, "01PARENT"),
      { kind: "turn-end" },
      ...setUp("fork"),
      { kind: "message", text: "second task" },
      decision("turn.done", "model", "done", "ended without tool calls", { step: 1 }),
    ];
    const lines = renderLedger(forked, { width: 100, color: false, all: false });
    assert.match(lines[0] ?? "", /^set-up · new session · \[copied from 01PARENT\]: /);
    assert.ok(lines.includes("turn 1 · first task [copied from 01PARENT]"), lines.join("\n"));
    assert.ok(lines.includes("turn 2 · second task"));
    assert.equal(lines.filter((l) => l.includes("copied from")).length, 2);
    // A decision copied into a section of the fork's own is marked on its own line.
    seq = 1;
    const mixed: LedgerEntry[] = [
      { kind: "message", text: "task" },
      decision("call.permission", "code", "allow", "read: allow", { step: 1 }, "01PARENT"),
      decision("turn.done", "model", "done", "ended", { step: 1 }),
    ];
    const marked = renderLedger(mixed, { width: 100, color: false, all: false });
    assert.match(marked.join("\n"), /call\.permission +code +allow +read: allow \[copied from 01PARENT\]\n/);
    assert.doesNotMatch(marked.find((l) => l.includes("turn.done")) ?? "", /copied/);
  });

  it("starts a new turn at a message step 1 follows, when the turn before ended without its turn.ended", () => {
    seq = 1;
    const cut: LedgerEntry[] = [
      { kind: "message", text: "first" },
      decision("context.tools", "code", ["read"], "all offered", { step: 1 }),
      // The run crashed here: no turn-end. The same process takes the next message.
      { kind: "message", text: "second" },
      decision("context.tools", "code", ["read"], "all offered", { step: 1 }),
      { kind: "message", text: "a steer" },
      decision("turn.done", "model", "done", "ended", { step: 2 }),
    ];
    const lines = renderLedger(cut, { width: 80, color: false, all: false, keep: (seat) => seat !== "context.tools" });
    assert.deepEqual(
      lines.map((l) => l.replace(/ +/g, " ")),
      ["turn 2 · second", " step 2", " turn.done model done ended"],
    );
  });

  it("keeps only the seats asked for, dropping the sections left empty", () => {
    const lines = renderLedger(ledger(), {
      width: 100,
      color: false,
      all: true,
      keep: (seat) => seat === "turn.done",
    });
    assert.deepEqual(
      lines.map((l) => l.replace(/ +/g, " ")),
      [
        "turn 1 · Fix the failing build and then run the whole test suite, please, and report back",
        " step 3",
        " turn.done model done ended without tool calls",
        "",
        "turn 2 · now the changelog",
        " step 1",
        " turn.done model done ended without tool calls",
      ],
    );
    assert.deepEqual(renderLedger([], { width: 80, color: false, all: false }), []);
    // A run's title still says how it began when the filter leaves its session.target out.
    const models = renderLedger(ledger(), {
      width: 100,
      color: false,
      all: true,
      keep: (seat) => seat === "model.select",
    });
    assert.deepEqual(
      models.filter((l) => l.startsWith("set-up")).map((l) => l.replace(/ · \d{4}-\d\d-\d\d \d\d:\d\d/, "")),
      ["set-up · new session", "set-up · continued"],
    );
  });

  it("goes under the decision when the terminal is too narrow for a reason column", () => {
    const lines = plain(40);
    for (const line of lines) assert.ok(textWidth(line) <= 40, line);
    const at = lines.findIndex((l) => /call\.approval/.test(l));
    assert.match(lines[at] ?? "", /^ {6}call\.approval +person$/);
    assert.equal(lines[at + 1], "        allow-once");
    assert.match(lines[at + 2] ?? "", /^ {8}the person answered: allow/);
  });
});
