import type { Holder, Reason, RecordedDecision } from "../contracts/decisions.js";
import { printableDeep } from "../util/printable.js";
import { padTo, shorten, textWidth, wrapWords } from "../util/wrap.js";
import {
  copiedWhole,
  groupLedger,
  type LedgerEntry,
  type Section,
  type SetUp,
  type Shown,
  type Turn,
} from "./ledger-group.js";
import { setUpSummary, setUpTitle } from "./ledger-setup.js";
import { answerText, formatReason } from "./render.js";

export interface LedgerViewOptions {
  /** Lines are at most this many characters. */
  width: number;
  /** ANSI colour: holders each in their own colour, headings bold. */
  color: boolean;
  /** Set-up decisions in full instead of one summary line per run. */
  all: boolean;
  /** Only the seats this accepts (a `--seat` glob). */
  keep?: (seat: string) => boolean;
  /** How to ask for everything, named in a folded set-up line: "--all", "/why --all". */
  allHint?: string;
}

const HOLDER_COLOR: Record<Holder, number> = {
  person: 35, // magenta
  code: 34, // blue
  config: 36, // cyan
  model: 33, // yellow
  hook: 32, // green
  policy: 31, // red
};

/** Below this many characters for the reason, it goes under the decision instead of beside it. */
const MIN_REASON = 24;

/**
 * `bosun why` (and `/why`) as lines: the ledger grouped by turn, step and call, the seat, holder
 * and answer in aligned columns and the settling reason wrapped beside them at word boundaries.
 * Each run's set-up is one summary line unless `all`. Pure: the caller reads the log and prints.
 */
export function renderLedger(entries: readonly LedgerEntry[], options: LedgerViewOptions): string[] {
  // What the ledger quotes (commands, paths, messages, a server's words) is text, never escapes.
  const sections = groupLedger(printableDeep(entries), options.keep);
  const paint = painter(options.color);
  const rows = sections.flatMap((s) => sectionRows(s, options.all));
  const layout = columns(rows, options.width);
  const lines: string[] = [];
  for (const section of sections) {
    // Runs and turns apart: a blank line before each but the first.
    if (lines.length > 0) lines.push("");
    if (section.kind === "set-up") {
      if (options.all) {
        lines.push(paint.bold(shorten(setUpTitle(section), options.width)));
        for (const row of setUpRows(section)) lines.push(...renderRow(row, layout, options.width, paint));
      } else {
        lines.push(setUpSummary(section, options.width, options.allHint ?? "--all"));
      }
      continue;
    }
    lines.push(paint.bold(turnTitle(section, options.width)));
    for (const step of section.steps) {
      if (step.step !== undefined) lines.push(`  step ${step.step}`);
      else lines.push("  outside a step");
      for (const group of step.groups) {
        if (group.call) lines.push(`    ${callTitle(group.call, options.width - 4)}`);
        const indent = group.call ? 6 : 4;
        for (const shown of group.decisions) {
          lines.push(...renderRow(rowOf(shown, indent, copiedWhole(section)), layout, options.width, paint));
        }
      }
    }
  }
  return lines;
}

interface Row {
  indent: number;
  seat: string;
  holder: Holder;
  answer: string;
  reason: string;
}

interface Layout {
  /** Where the holder, the answer and the reason start. */
  holder: number;
  answer: number;
  reason: number;
  /** Answers longer than this take their own line(s). */
  answerWidth: number;
  /** False when the terminal is too narrow for a reason column: reasons go under their decision. */
  beside: boolean;
}

function sectionRows(section: Section, all: boolean): Row[] {
  if (section.kind === "set-up") return all ? setUpRows(section) : [];
  const copied = copiedWhole(section);
  return section.steps.flatMap((step) =>
    step.groups.flatMap((group) => group.decisions.map((d) => rowOf(d, group.call ? 6 : 4, copied))),
  );
}

function setUpRows(section: SetUp): Row[] {
  const copied = copiedWhole(section);
  return section.decisions.map((d) => rowOf(d, 2, copied));
}

function rowOf(shown: Shown, indent: number, sectionCopied: string | null): Row {
  const { decision } = shown;
  const reason = decisive(decision);
  const copied = shown.copiedFrom && shown.copiedFrom !== sectionCopied ? `[copied from ${shown.copiedFrom}]` : "";
  return {
    indent,
    seat: decision.seat,
    holder: decision.holder,
    answer: answerText(decision.answer),
    reason: [reason ? formatReason(reason) : "", copied].filter(Boolean).join(" "),
  };
}

function columns(rows: readonly Row[], width: number): Layout {
  const holder = Math.max(0, ...rows.map((r) => r.indent + textWidth(r.seat))) + 2;
  const answer = holder + Math.max(4, ...rows.map((r) => r.holder.length)) + 2;
  const cap = Math.max(10, Math.min(32, Math.floor(width / 6)));
  // The column is as wide as the answers that fit it: a long one does not push the reasons right.
  const answerWidth = Math.max(0, ...rows.map((r) => textWidth(r.answer)).filter((w) => w <= cap));
  const reason = answer + answerWidth + 2;
  return { holder, answer, reason, answerWidth, beside: width - reason >= MIN_REASON };
}

function renderRow(row: Row, layout: Layout, width: number, paint: Painter): string[] {
  const head = padTo(`${" ".repeat(row.indent)}${row.seat}`, layout.holder);
  const holder = paint.holder(row.holder, padTo(row.holder, layout.answer - layout.holder));
  if (!layout.beside) {
    // Too narrow for columns: the reason under the decision, indented.
    const at = row.indent + 2;
    const under = (text: string) => wrapWords(text, width - at).map((l) => `${" ".repeat(at)}${l}`);
    const fits = textWidth(row.answer) <= width - layout.answer;
    const lines = fits ? [`${head}${holder}${row.answer}`] : [`${head}${holder}`, ...under(row.answer)];
    if (row.reason) lines.push(...under(row.reason));
    return lines.map((l) => l.trimEnd());
  }
  const reasons = row.reason ? wrapWords(row.reason, width - layout.reason) : [];
  const under = (text: string) => `${" ".repeat(layout.reason)}${text}`;
  if (textWidth(row.answer) <= layout.answerWidth) {
    const first = `${head}${holder}${padTo(row.answer, layout.reason - layout.answer)}${reasons[0] ?? ""}`;
    return [first.trimEnd(), ...reasons.slice(1).map(under)];
  }
  // A long answer (a list of files, tools) fills its line and those below; the reason follows.
  const answers = wrapWords(row.answer, width - layout.answer);
  return [
    `${head}${holder}${answers[0]}`,
    ...answers.slice(1).map((a) => `${" ".repeat(layout.answer)}${a}`),
    ...reasons.map(under),
  ];
}

function decisive(decision: RecordedDecision): Reason | undefined {
  // Tolerant of a malformed row (from an old import): the ledger must always be readable.
  const reasons = Array.isArray(decision.reasons) ? decision.reasons : [];
  return reasons.find((r) => r.decisive) ?? reasons[0];
}

function turnTitle(turn: Turn, width: number): string {
  const copied = copiedWhole(turn);
  const suffix = copied ? ` [copied from ${copied}]` : "";
  const head = `turn ${turn.number} · `;
  const room = width - textWidth(head) - textWidth(suffix);
  const message = turn.message.trim() === "" ? "(empty message)" : turn.message;
  return room >= 8 ? `${head}${shorten(message, room)}${suffix}` : shorten(`${head}${message}`, width);
}

/** "call c3: shell npm test" within `width`; a task call ends with its delegate's session id, kept whole. */
function callTitle(call: { id: string; tool?: string; input?: unknown; session?: string }, width: number): string {
  const tail = call.session ? ` → ${call.session}` : "";
  if (!call.tool) return shorten(`call ${call.id}`, width);
  const argument = mainArgument(call.input);
  const head = `call ${call.id}: ${call.tool}${argument ? ` ${argument}` : ""}`;
  return `${shorten(head, Math.max(8, width - textWidth(tail)))}${tail}`;
}

/** What a call is about, in one line: its command, path, pattern or URL, else its first text argument. */
function mainArgument(input: unknown): string {
  if (typeof input !== "object" || input === null) return "";
  const record = input as Record<string, unknown>;
  for (const key of ["command", "path", "file_path", "pattern", "url", "query", "agent", "description"]) {
    const value = record[key];
    if (typeof value === "string" && value !== "") return value.split("\n")[0] ?? "";
  }
  const first = Object.values(record).find((v) => typeof v === "string" && v !== "");
  return typeof first === "string" ? (first.split("\n")[0] ?? "") : "";
}

interface Painter {
  bold(text: string): string;
  holder(holder: Holder, text: string): string;
}

function painter(color: boolean): Painter {
  if (!color) return { bold: (t) => t, holder: (_, t) => t };
  return {
    bold: (t) => `\x1b[1m${t}\x1b[22m`,
    // Only the name is coloured, not the padding after it.
    holder: (holder, t) => {
      const name = t.trimEnd();
      return `\x1b[${HOLDER_COLOR[holder] ?? 39}m${name}\x1b[39m${t.slice(name.length)}`;
    },
  };
}
