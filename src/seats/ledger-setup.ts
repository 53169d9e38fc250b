import type { RecordedDecision } from "../contracts/decisions.js";
import { localTime } from "../util/time.js";
import { shorten, textWidth } from "../util/wrap.js";
import { copiedWhole, type SetUp } from "./ledger-group.js";
import { answerText } from "./render.js";

/** A run's set-up in the ledger view: its title, and the one line it folds into without --all. */
/** `set-up · <local time> · new session` (continued, resumed, fork of <id>, between turns); the time only `when`. */
export function setUpTitle(section: SetUp, when = true): string {
  const first = section.decisions[0]?.decision;
  const target = section.target as { mode?: string; from?: string } | undefined;
  const how =
    target?.mode === "new"
      ? "new session"
      : target?.mode === "fork"
        ? `fork of ${target.from}`
        : target?.mode === "continue"
          ? "continued"
          : target?.mode === "resume"
            ? "resumed"
            : target
              ? undefined
              : "between turns";
  const copied = copiedWhole(section);
  return [
    "set-up",
    first && when && !Number.isNaN(Date.parse(first.at)) ? localTime(Date.parse(first.at)) : "",
    how,
    copied ? `[copied from ${copied}]` : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The seats a folded set-up line names first: what a person most often wants to check. */
const HIGHLIGHTS = ["model.select", "permission.mode", "agent.select", "project.trust"];
/** Their names in that line, short enough to leave room for more. */
const SHORT: Record<string, string> = {
  "model.select": "model",
  "permission.mode": "mode",
  "agent.select": "agent",
  "project.trust": "trust",
};

/**
 * One line: the set-up's title, then the most telling decisions (model, mode, agent, trust, then
 * any a person, config, hook or policy held — not code's other defaults) as far as they fit, then
 * how many more and how to see them.
 */
export function setUpSummary(section: SetUp, width: number, allHint: string): string {
  const rest = section.decisions.filter((d) => d.decision.seat !== "session.target").map((d) => d.decision);
  const ranked = rest
    .map((decision, i) => ({ decision, rank: rank(decision, i) }))
    .filter((r) => r.rank < CODE)
    .sort((a, b) => a.rank - b.rank)
    .map((r) => r.decision);
  // The time is left to --all: this line is for what was decided.
  if (rest.length === 0) return shorten(setUpTitle(section, false), width);
  const title = `${setUpTitle(section, false)}:`;
  const named: string[] = [];
  let hidden = rest.length;
  for (const decision of ranked) {
    const item = `${SHORT[decision.seat] ?? decision.seat} ${shorten(answerText(decision.answer), 32)}`;
    const left = hidden - 1;
    const tail = left > 0 ? ` · ${left} more (${allHint})` : "";
    const line = `${title} ${[...named, item].join(" · ")}${tail}`;
    if (textWidth(line) > width) break;
    named.push(item);
    hidden = left;
  }
  if (named.length === 0) {
    const count = `${rest.length} decision${rest.length === 1 ? "" : "s"} (${allHint})`;
    return shorten(`${title} ${count}`, width);
  }
  return `${title} ${named.join(" · ")}${hidden > 0 ? ` · ${hidden} more (${allHint})` : ""}`;
}

/** Ranks from here on are code's own defaults: counted in the line, never named. */
const CODE = 2000;

function rank(decision: RecordedDecision, index: number): number {
  const highlight = HIGHLIGHTS.indexOf(decision.seat);
  if (highlight >= 0) return highlight;
  return (decision.holder === "code" ? CODE : 1000) + index;
}
