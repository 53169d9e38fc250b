import { seatListing } from "../seats/seat-names.js";

export { ledgerText, linkDelegates } from "../session/ledger-text.js";

/** Why a seat glob is refused: it names no seat of the catalog (a typo), and which seats there are. */
export function unknownSeatMessage(seat: string, width: number): string {
  return `no seat matches "${seat}"; the seats are:\n${seatListing(width).join("\n")}`;
}
