import { z } from "zod";
import { UsageError } from "../errors.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import { absolutePath, cleanText, EVENT_SCHEMAS, eventProblem, fieldPath, sessionId } from "./schemas.js";

/** The export file format. Versioned, so a later bosun can still read what this one wrote. */
export const EXPORT_FORMAT = "bosun.session/1";

const ExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  session: z.object({
    // The id format bosun makes: an id becomes a folder name and part of an allow rule, so
    // `../x`, `/abs`, a NUL or a glob must never get in as one.
    id: sessionId,
    title: cleanText,
    directory: absolutePath,
    parent: sessionId.nullable(),
    created: z.string(),
    updated: z.string(),
  }),
  events: z.array(z.object({ seq: z.int().positive(), type: z.string().min(1), data: z.unknown(), at: z.string() })),
});

export type SessionExport = z.infer<typeof ExportSchema>;

export function exportSession(store: SessionStore, session: SessionInfo): SessionExport {
  return {
    format: EXPORT_FORMAT,
    session: {
      id: session.id,
      title: session.title,
      directory: session.directory,
      parent: session.parentId,
      created: new Date(session.created).toISOString(),
      updated: new Date(session.updated).toISOString(),
    },
    events: store.events(session.id).map((e) => ({
      seq: e.seq,
      type: e.type,
      data: e.data,
      at: new Date(e.at).toISOString(),
    })),
  };
}

/**
 * Imports an exported session under its own id. Refuses (exit 2, nothing written) when the
 * file is not a bosun export, its ids are not ids bosun makes, its events are not numbered
 * 1..n, an event is not of a type this bosun records or its data does not have that type's
 * shape (schemas.ts: the same typed journal the store's writers keep to), its times run
 * backwards, its parent is not here (a fork, a whole copy, needs none), or the id already exists.
 */
export function importSession(store: SessionStore, input: unknown, source: string): SessionInfo {
  const parsed = ExportSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => `  ${fieldPath(i.path) || "(top)"}: ${i.message}`)
      .join("\n");
    throw new UsageError(`${source} is not a bosun session export (${EXPORT_FORMAT}):\n${problems}`);
  }
  const { session, events } = parsed.data;
  events.forEach((event, index) => {
    if (event.seq !== index + 1) {
      throw new UsageError(`${source}: events must be numbered 1..n in order; event ${index + 1} has seq ${event.seq}`);
    }
  });
  if (events[0]?.type !== "session.created") {
    throw new UsageError(`${source}: an export's first event must be session.created`);
  }
  for (const event of events) {
    const problem = eventProblem(event.type, event.data);
    if (problem) throw new UsageError(`${source}: event ${event.seq} (${event.type}): ${problem}`);
  }
  // Checked just above: the first event is a session.created of its schema's shape.
  const created = EVENT_SCHEMAS["session.created"].safeParse(events[0]?.data);
  const info: SessionInfo = {
    id: session.id,
    title: session.title,
    directory: session.directory,
    parentId: session.parent,
    created: timestamp(session.created, source),
    updated: timestamp(session.updated, source),
  };
  if (info.updated < info.created) {
    throw new UsageError(
      `${source}: session.updated (${session.updated}) is earlier than session.created (${session.created})`,
    );
  }
  const rows = events.map((e) => ({ seq: e.seq, type: e.type, data: e.data, at: timestamp(e.at, source) }));
  // Checked under the write lock, so a second import racing this one gets the same clear
  // refusal instead of a constraint error.
  store.atomically(() => {
    if (store.get(session.id)) {
      throw new UsageError(`session ${session.id} already exists; delete it first to import this file again`);
    }
    // A fork holds a whole copy of its original, so it stands without it; a delegate's session does not.
    const fork = created.success && created.data.forked_from === session.parent;
    if (session.parent !== null && !fork && !store.get(session.parent)) {
      throw new UsageError(
        `${source}: its parent session ${session.parent} does not exist here; import the parent first`,
      );
    }
    store.insertWhole(info, rows);
  });
  return info;
}

// What exportSession writes (toISOString), or any ISO 8601 time with an explicit zone. A time
// without a zone would be read as local time, so the same file would import differently on
// machines in different time zones; loose forms ("1", "Jan 2") are not accepted either.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function timestamp(text: string, source: string): number {
  const value = ISO_TIME.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(value)) {
    throw new UsageError(`${source}: "${text}" is not a date (ISO 8601 with a zone, e.g. 2025-01-02T03:04:05.678Z)`);
  }
  return value;
}
