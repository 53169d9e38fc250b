import { UsageError } from "../../errors.js";
import { namesASeat } from "../../seats/seat-names.js";
import { decisionsJson } from "../../session/decisions-json.js";
import { sessionHome } from "../../session/home.js";
import { latestSessionHere } from "../../session/open.js";
import { findSession } from "../../store/lookup.js";
import type { SessionInfo, SessionStore } from "../../store/session-store.js";
import { colorOn, outputWidth } from "../../util/terminal.js";
import { json, out, outExact } from "../output.js";
import { unknownSeatMessage } from "../why-text.js";
import { whyText, whyTreeJson } from "../why-tree.js";
import { READ_ONLY, withStore } from "./store.js";

export interface WhyOptions {
  seat?: string;
  json?: boolean;
  /** The newest session of this repository (also what no session named means). */
  last?: boolean;
  /** Set-up decisions in full, not folded into one line per run. */
  all?: boolean;
  /** Each delegate's decisions after the session's own, recursively (why-tree.ts). */
  tree?: boolean;
}

export function why(ref: string | undefined, options: WhyOptions): void {
  if (ref !== undefined && options.last) throw new UsageError("give a session or --last, not both");
  const width = outputWidth();
  if (options.seat !== undefined && !namesASeat(options.seat)) {
    // A typo, not a seat that decided nothing here: say which seats there are.
    throw new UsageError(unknownSeatMessage(options.seat, width));
  }
  withStore((store) => {
    const session = ref === undefined ? latest(store) : findSession(store, ref);
    if (options.json) {
      return json(
        options.tree ? whyTreeJson(store, session, options.seat) : decisionsJson(store, session.id, options.seat),
      );
    }
    const color = colorOn();
    const text = whyText(store, session, {
      width,
      color,
      seat: options.seat,
      all: options.all === true,
      tree: options.tree === true,
    });
    // In colour, the escapes are bosun's own around fields the view made printable.
    if (color) outExact(text);
    else out(text);
  }, READ_ONLY);
}

function latest(store: SessionStore): SessionInfo {
  const found = latestSessionHere(store, process.cwd());
  if (!found) {
    throw new UsageError(
      `no session in ${sessionHome(process.cwd())} yet; name one: bosun why <session> (bosun sessions --all lists them)`,
    );
  }
  return found;
}
