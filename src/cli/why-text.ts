import { seatGlob } from "../seats/glob.js";
import { renderLedger } from "../seats/ledger-view.js";
import { seatListing } from "../seats/seat-names.js";
import { readLedger } from "../session/ledger.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * The ledger as text, for `bosun why` and `/why`: grouped by turn and step, fitted to `width`;
 * a line saying so when nothing (for the seat glob) was recorded.
 */
export function ledgerText(
  store: SessionStore,
  sessionId: string,
  options: { width: number; color: boolean; seat?: string | undefined; all: boolean; allHint?: string },
): string {
  const lines = renderLedger(readLedger(store, sessionId), {
    width: options.width,
    color: options.color,
    // A seat glob already narrows the ledger: what it names is shown, set-up or not.
    all: options.all || options.seat !== undefined,
    ...(options.seat ? { keep: seatGlob(options.seat) } : {}),
    ...(options.allHint ? { allHint: options.allHint } : {}),
  });
  if (lines.length > 0) return lines.join("\n");
  return options.seat ? `no decisions for seats matching "${options.seat}"` : "no decisions recorded";
}

/** Why a seat glob is refused: it names no seat of the catalog (a typo), and which seats there are. */
export function unknownSeatMessage(seat: string, width: number): string {
  return `no seat matches "${seat}"; the seats are:\n${seatListing(width).join("\n")}`;
}
