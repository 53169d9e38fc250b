import { UsageError } from "../../errors.js";
import { type Delegate, delegatesOf } from "../../session/delegates.js";
import { homesOf } from "../../session/home.js";
import { delegateFacts, sessionJson } from "../../session/json.js";
import { leaseHolder } from "../../store/lease.js";
import { matchSession } from "../../store/lookup.js";
import type { SessionInfo, SessionStore } from "../../store/session-store.js";
import { printableLine } from "../../util/printable.js";
import { formatTable } from "../../util/table.js";
import { age, localTime } from "../../util/time.js";
import { delegateLabel } from "../delegate-text.js";
import { isoTime, json, out } from "../output.js";
import { sessionTree } from "../session-tree.js";
import { READ_ONLY, withStore } from "./store.js";

/*
 * `bosun sessions` (list), `show` and `delete`: only the store is loaded. Export and import
 * (zod, the seat catalog) live in session-transfer.ts, new and fork (the config loader) in
 * session-open.ts, each imported only when its command runs.
 */

/** A parent shows this many of its delegates (the latest) unless --children: see sessionTree. main.ts's help and the README say 5. */
export const CHILD_ROWS = 5;

/**
 * `bosun sessions`: this repository's sessions (from any of its folders; home.ts), or with --all
 * every one, newest first. Times on the machine's clock with how long ago; a fork names the
 * session it came from (PARENT, an id prefix `sessions show` takes); each row says where it
 * belongs. A delegate sits indented under its parent with its agent, task and status, at most
 * CHILD_ROWS of them per parent unless --children (session-tree.ts); one whose parent is not
 * listed stays at the top, saying where the parent is. JSON is every session, flat, newest first,
 * with full ids and ISO times in UTC.
 */
export function listSessions(options: { all?: boolean; json?: boolean; children?: boolean }): void {
  withStore((store) => {
    const homes = homesOf(process.cwd());
    const sessions = store.list(options.all ? undefined : homes);
    const facts = new Map(sessions.map((s) => [s.id, delegateFacts(store, s)]));
    if (options.json) return json(sessions.map((s) => sessionJson(s, facts.get(s.id))));
    if (sessions.length === 0) {
      return out(options.all ? "no sessions yet" : `no sessions in ${homes[0]} (--all lists every directory)`);
    }
    const delegates = new Map<string, Delegate>();
    for (const [id, fact] of facts) if (fact.delegate) delegates.set(id, fact.delegate);
    const tree = sessionTree(sessions, delegates, options.children ? undefined : CHILD_ROWS);
    const now = Date.now();
    const rows = tree.map((row) => {
      if (row.kind === "hidden") {
        const what = row.count === 1 ? "1 earlier child session" : `${row.count} earlier child sessions`;
        return [`${branch(row.depth)}…`, "", "", "", "", `${what} (--children lists every one)`];
      }
      const { session: s, delegate } = row;
      const status = facts.get(s.id)?.status ?? undefined;
      const title = printableLine(delegate ? delegateLabel(delegate, s.title, status) : s.title || "(untitled)");
      return [
        `${branch(row.depth)}${s.id}`,
        localTime(s.updated),
        age(s.updated, now),
        s.parentId ? s.parentId.slice(0, PARENT_CHARS) : "-",
        s.directory,
        row.orphan && s.parentId ? `${title} · ${parentWhere(store, s.parentId)}` : title,
      ];
    });
    out(formatTable(["ID", "UPDATED", "AGE", "PARENT", "DIRECTORY", "TITLE"], rows));
  }, READ_ONLY);
}

/** The indent of a row at this depth under its top-level session: two spaces a level, then a corner. */
function branch(depth: number): string {
  return depth === 0 ? "" : `${"  ".repeat(depth - 1)}└ `;
}

/** Why a delegate's parent is not above it: elsewhere (another directory), or gone. */
function parentWhere(store: SessionStore, parentId: string): string {
  const parent = store.get(parentId);
  return parent ? `parent in ${parent.directory}` : "parent deleted";
}

/** Enough of a parent's id to tell it apart and to give to `sessions show`, short enough for a row. */
const PARENT_CHARS = 10;

export async function showSession(ref: string, options: { json?: boolean }): Promise<void> {
  // The seats code only for this command: listing and delete never read decisions.
  const { readDecisions } = await import("../../seats/record.js");
  const { describeUsage, summarizeUsage } = await import("../../model/session-usage.js");
  withStore((store) => {
    const { session } = matchSession(store, ref);
    const events = store.events(session.id);
    const counts: Record<string, number> = {};
    for (const event of events) counts[event.type] = (counts[event.type] ?? 0) + 1;
    const decisions = readDecisions(store, session.id).length;
    const usage = summarizeUsage(store, session.id);
    const facts = delegateFacts(store, session);
    const children = delegatesOf(store, session.id).map((c) => c.session.id);
    if (options.json) {
      return json({
        ...sessionJson(session, facts),
        children,
        events: events.length,
        decisions,
        eventTypes: counts,
        usage,
      });
    }
    const described = describeUsage(usage);
    const delegateLines = facts.delegate
      ? [
          `delegate   ${delegateLabel(facts.delegate, session.title, facts.status ?? undefined)} (call ${facts.delegate.call}, depth ${facts.delegate.depth})`,
        ]
      : [];
    const childLines =
      children.length > 0
        ? [`children   ${children.length} (bosun why ${session.id} --tree shows their decisions)`]
        : [];
    out(
      [
        `id         ${session.id}`,
        `title      ${printableLine(session.title || "(untitled)")}`,
        `directory  ${session.directory}`,
        `parent     ${session.parentId ?? "-"}`,
        ...delegateLines,
        ...childLines,
        `created    ${isoTime(session.created)}`,
        `updated    ${isoTime(session.updated)}`,
        `events     ${events.length} (${Object.entries(counts)
          .map(([type, n]) => `${type} ${n}`)
          .join(", ")})`,
        `decisions  ${decisions} (bosun why ${session.id})`,
        `tokens     ${described.tokens}`,
        `cost       ${described.cost}`,
      ].join("\n"),
    );
  }, READ_ONLY);
}

/**
 * Deletes a session named by its full id. A prefix or a title could name another session than
 * the person thinks, so it deletes only with --yes; otherwise it says what matched (exit 2).
 * The lookup and the delete share one write transaction: what is deleted is what matched.
 */
export function deleteSession(ref: string, options: { yes?: boolean } = {}): void {
  withStore((store) => {
    const session = store.atomically(() => {
      const { session, by } = matchSession(store, ref);
      if (by !== "id" && !options.yes) {
        const how = by === "title" ? "the title of" : "an id prefix of";
        throw new UsageError(
          `"${ref.trim()}" is ${how} session ${describe(session)}; nothing deleted: give the full id, or add --yes to delete it`,
        );
      }
      // A session a live run holds is not pulled from under it.
      const holder = leaseHolder(store, session.id);
      if (holder?.alive) {
        throw new UsageError(`session ${describe(session)} is in use by bosun pid ${holder.pid}; nothing deleted`);
      }
      store.delete(session.id);
      return session;
    });
    out(`deleted ${describe(session)}`);
  });
}

function describe(session: SessionInfo): string {
  return `${session.id}${session.title ? ` (${printableLine(session.title)})` : ""}`;
}
