import type { Seat } from "../contracts/decisions.js";
import { padTo, shorten, textWidth, wrapWords } from "../util/wrap.js";

/** Under this many characters beside the other columns, the default goes on a line of its own. */
const MIN_DEFAULT = 30;

/**
 * `bosun seats`: one row per seat — id, holders, fail mode and the default, shortened at a word
 * to fit `width` (on its own line below when the terminal is narrow). `seatDetail` has it all.
 */
export function seatTable(seats: readonly Seat[], width: number): string[] {
  const header = ["SEAT", "HOLDERS", "FAIL"];
  const rows = seats.map((seat) => [seat.id, seat.holders.join(", "), seat.fail]);
  const widths = header.map((h, i) => Math.max(textWidth(h), ...rows.map((r) => textWidth(r[i] ?? ""))));
  const start = widths.reduce((sum, w) => sum + w + 2, 0);
  const beside = width - start >= MIN_DEFAULT;
  const line = (cells: string[]) => cells.map((c, i) => padTo(c, (widths[i] ?? 0) + 2)).join("");
  const lines = [(beside ? `${line(header)}DEFAULT` : line(header)).trimEnd()];
  seats.forEach((seat, i) => {
    const cells = line(rows[i] ?? []);
    if (beside) lines.push(`${cells}${shorten(seat.default, width - start)}`);
    else lines.push(cells.trimEnd(), `  ${shorten(seat.default, width - 2)}`);
  });
  lines.push("", ...wrapWords("bosun seats <seat> shows one seat in full; bosun seats --long shows them all.", width));
  return lines;
}

/** One seat in full: question, holders, default, fail mode (and why open is acceptable), config keys. */
export function seatDetail(seat: Seat, width: number): string[] {
  const fields: Array<[string, string]> = [
    ["question", seat.question],
    ["holders", seat.holders.join(", ")],
    ["default", seat.default],
    ["fail", seat.fail],
    ...(seat.fail === "open" ? [["open because", seat.openBecause] as [string, string]] : []),
    ["config", seat.config.join(", ") || "none"],
  ];
  const column = 2 + Math.max(...fields.map(([label]) => label.length)) + 2;
  return [
    seat.id,
    ...fields.flatMap(([label, text]) =>
      wrapWords(text, width - column).map(
        (l, i) => `${i === 0 ? padTo(`  ${label}`, column) : " ".repeat(column)}${l}`,
      ),
    ),
  ];
}
