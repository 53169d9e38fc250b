import type { Seat } from "../../contracts/decisions.js";
import { UsageError } from "../../errors.js";
import { findSeat, SEATS } from "../../seats/catalog.js";
import { seatDetail, seatTable } from "../../seats/catalog-view.js";
import { closeSeats, seatListing } from "../../seats/seat-names.js";
import { outputWidth } from "../../util/terminal.js";
import { json, out } from "../output.js";

export function showSeats(id: string | undefined, options: { json?: boolean; long?: boolean }): void {
  const width = outputWidth();
  const seats = id === undefined ? SEATS : [named(id, width)];
  if (options.json) {
    const rows = seats.map(asJson);
    json(id === undefined ? rows : rows[0]);
    return;
  }
  if (id !== undefined || options.long) {
    out(seats.map((seat) => seatDetail(seat, width).join("\n")).join("\n\n"));
    return;
  }
  out(seatTable(SEATS, width).join("\n"));
}

function named(id: string, width: number): Seat {
  const seat = findSeat(id);
  if (seat) return seat;
  const near = closeSeats(id);
  throw new UsageError(
    near.length > 0
      ? `no seat "${id}"; did you mean: ${near.join(", ")}?`
      : `no seat "${id}"; the seats are:\n${seatListing(width).join("\n")}`,
  );
}

function asJson(seat: Seat) {
  return {
    id: seat.id,
    question: seat.question,
    holders: seat.holders,
    default: seat.default,
    fail: seat.fail,
    ...(seat.fail === "open" ? { openBecause: seat.openBecause } : {}),
    config: seat.config,
  };
}
