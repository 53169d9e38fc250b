import { SEATS } from "../../seats/catalog.js";
import { seatRow } from "../../seats/render.js";
import { formatTable } from "../../util/table.js";
import { json, out } from "../output.js";

export function showSeats(options: { json?: boolean }): void {
  if (options.json) {
    json(
      SEATS.map((seat) => ({
        id: seat.id,
        question: seat.question,
        holders: seat.holders,
        default: seat.default,
        fail: seat.fail,
        ...(seat.fail === "open" ? { openBecause: seat.openBecause } : {}),
        config: seat.config,
      })),
    );
    return;
  }
  out(formatTable(["SEAT", "QUESTION", "HOLDERS", "DEFAULT", "FAIL", "CONFIG"], SEATS.map(seatRow)));
}
