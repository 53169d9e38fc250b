import { decisionsJson } from "../session/decisions-json.js";
import { type Delegate, delegateOf, delegateStatus, delegatesOf } from "../session/delegates.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import { printableLine } from "../util/printable.js";
import { shorten, textWidth, wrapWords } from "../util/wrap.js";
import { delegateLabel } from "./delegate-text.js";
import { ledgerText } from "./why-text.js";

/**
 * `bosun why` across sessions: a delegate names its parent; a parent says how many delegates it
 * started, or with --tree shows each one's decisions after its own, recursively, in the order
 * its task calls started them (store.children: oldest first). Forks are not delegates: they
 * show only their `[copied from …]` marks, as before.
 */

export interface WhyTextOptions {
  width: number;
  color: boolean;
  seat?: string | undefined;
  all: boolean;
  tree: boolean;
}

/** How deeper delegates are indented under their parent, per level. */
const INDENT = 2;

export function whyText(store: SessionStore, session: SessionInfo, options: WhyTextOptions): string {
  const lines: string[] = [];
  const delegate = session.parentId ? delegateOf(store, session.id) : undefined;
  if (delegate && session.parentId) {
    const label = delegateLabel(delegate, session.title, delegateStatus(store, session.id));
    const text = printableLine(`delegate ${label}, started by session ${session.parentId} (its call ${delegate.call})`);
    lines.push(...wrapWords(text, options.width), "");
  }
  lines.push(...ledgerText(store, session.id, options).split("\n"));
  if (options.tree) {
    lines.push(...delegateSections(store, session.id, options, 1, new Set([session.id])));
    return lines.join("\n");
  }
  const count = delegatesOf(store, session.id).length;
  if (count > 0) {
    const what = count === 1 ? "1 delegate" : `${count} delegates`;
    lines.push(
      "",
      ...wrapWords(`${what} (child sessions): bosun why ${session.id} --tree shows theirs too`, options.width),
    );
  }
  return lines.join("\n");
}

/** Each delegate of `parentId`: a heading, then its ledger and its own delegates, indented by depth. */
function delegateSections(
  store: SessionStore,
  parentId: string,
  options: WhyTextOptions,
  depth: number,
  seen: Set<string>,
): string[] {
  const lines: string[] = [];
  const heading = " ".repeat(INDENT * (depth - 1));
  const body = " ".repeat(INDENT * depth);
  for (const { session, delegate } of delegatesOf(store, parentId)) {
    // Only a hand-made database could lead back round; each session is shown once.
    if (seen.has(session.id)) continue;
    seen.add(session.id);
    const title = headingText(session, delegate, delegateStatus(store, session.id), options.width - heading.length);
    lines.push("", `${heading}${options.color ? `\x1b[1m${title}\x1b[22m` : title}`);
    const ledger = ledgerText(store, session.id, { ...options, width: Math.max(20, options.width - body.length) });
    lines.push(...ledger.split("\n").map((line) => (line === "" ? "" : `${body}${line}`)));
    lines.push(...delegateSections(store, session.id, options, depth + 1, seen));
  }
  return lines;
}

/** "delegate reviewer: check the diff · done · 01K…": the task shortened to fit, the id always whole. */
function headingText(
  session: SessionInfo,
  delegate: Delegate,
  status: ReturnType<typeof delegateStatus>,
  width: number,
): string {
  const tail = ` · ${session.id}`;
  const label = printableLine(`delegate ${delegateLabel(delegate, session.title, status)}`);
  return `${shorten(label, Math.max(12, width - textWidth(tail)))}${tail}`;
}

export interface WhyTreeJson {
  session: string;
  title: string;
  parent: string | null;
  delegate: Delegate | null;
  status: string | null;
  decisions: ReturnType<typeof decisionsJson>;
  children: WhyTreeJson[];
}

/** `bosun why --tree --json`: the session with its decisions, and each delegate the same way, nested. */
export function whyTreeJson(
  store: SessionStore,
  session: SessionInfo,
  seat: string | undefined,
  seen: Set<string> = new Set(),
): WhyTreeJson {
  seen.add(session.id);
  const delegate = session.parentId ? delegateOf(store, session.id) : undefined;
  return {
    session: session.id,
    title: session.title,
    parent: session.parentId,
    delegate: delegate ?? null,
    status: delegate ? (delegateStatus(store, session.id) ?? null) : null,
    decisions: decisionsJson(store, session.id, seat),
    children: delegatesOf(store, session.id)
      .filter((c) => !seen.has(c.session.id))
      .map((c) => whyTreeJson(store, c.session, seat, seen)),
  };
}
