import { closest } from "../util/closest.js";
import { textWidth, wrapWords } from "../util/wrap.js";
import { SEATS } from "./catalog.js";
import { seatGlob } from "./glob.js";

/**
 * Checking a seat name or glob against the catalog, so a typo is told apart from a seat that
 * simply decided nothing in this session.
 */

/** Whether `pattern` (a seat id or glob) names at least one seat of the catalog. */
export function namesASeat(pattern: string): boolean {
  const matches = seatGlob(pattern);
  return SEATS.some((seat) => matches(seat.id));
}

/** Catalog seats close to `wanted` (a mistyped id), best first. */
export function closeSeats(wanted: string, limit = 3): string[] {
  return closest(
    wanted,
    SEATS.map((s) => s.id),
    limit,
  );
}

/**
 * The catalog's seats grouped by stage, one stage a line, wrapped to `width` under its names:
 * `  call.*     parse, repair, validate, ...` (the stage as the glob that takes all of it).
 */
export function seatListing(width: number): string[] {
  const stages = new Map<string, string[]>();
  for (const seat of SEATS) {
    const dot = seat.id.indexOf(".");
    const stage = seat.id.slice(0, dot);
    stages.set(stage, [...(stages.get(stage) ?? []), seat.id.slice(dot + 1)]);
  }
  const column = 2 + Math.max(...[...stages.keys()].map((s) => textWidth(s) + 2)) + 2;
  return [...stages].flatMap(([stage, names]) =>
    wrapWords(names.join(", "), width - column).map(
      (line, i) => `${i === 0 ? `  ${stage}.*`.padEnd(column) : " ".repeat(column)}${line}`,
    ),
  );
}
