import { UsageError } from "../../errors.js";
import { homesOf } from "../../session/home.js";
import { leaseHolder } from "../../store/lease.js";
import { matchSession } from "../../store/lookup.js";
import type { SessionInfo } from "../../store/session-store.js";
import { formatTable } from "../../util/table.js";
import { age, localTime } from "../../util/time.js";
import { isoTime, json, out } from "../output.js";
import { READ_ONLY, withStore } from "./store.js";

/*
 * `bosun sessions` (list), `show` and `delete`: only the store is loaded. Export and import
 * (zod, the seat catalog) live in session-transfer.ts, new and fork (the config loader) in
 * session-open.ts, each imported only when its command runs.
 */

/** The JSON shape of a session in listings: public contract. */
export function sessionJson(s: SessionInfo) {
  return {
    id: s.id,
    title: s.title,
    directory: s.directory,
    parent: s.parentId,
    created: isoTime(s.created),
    updated: isoTime(s.updated),
  };
}

/**
 * `bosun sessions`: this repository's sessions (from any of its folders; home.ts), or with --all
 * every one, newest first. Times on the machine's clock with how long ago; a fork names the
 * session it came from (PARENT, an id prefix `sessions show` takes); each row says where it
 * belongs. JSON keeps full ids and ISO times in UTC.
 */
export function listSessions(options: { all?: boolean; json?: boolean }): void {
  withStore((store) => {
    const homes = homesOf(process.cwd());
    const sessions = store.list(options.all ? undefined : homes);
    if (options.json) return json(sessions.map(sessionJson));
    if (sessions.length === 0) {
      return out(options.all ? "no sessions yet" : `no sessions in ${homes[0]} (--all lists every directory)`);
    }
    const now = Date.now();
    const rows = sessions.map((s) => [
      s.id,
      localTime(s.updated),
      age(s.updated, now),
      s.parentId ? s.parentId.slice(0, PARENT_CHARS) : "-",
      s.directory,
      s.title || "(untitled)",
    ]);
    out(formatTable(["ID", "UPDATED", "AGE", "PARENT", "DIRECTORY", "TITLE"], rows));
  }, READ_ONLY);
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
    if (options.json) {
      return json({ ...sessionJson(session), events: events.length, decisions, eventTypes: counts, usage });
    }
    const described = describeUsage(usage);
    out(
      [
        `id         ${session.id}`,
        `title      ${session.title || "(untitled)"}`,
        `directory  ${session.directory}`,
        `parent     ${session.parentId ?? "-"}`,
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
  return `${session.id}${session.title ? ` (${session.title})` : ""}`;
}
