import { z } from "zod";
import { UsageError } from "../errors.js";
import { findSeat } from "../seats/catalog.js";
import { DECISION_EVENT } from "../seats/record.js";
import { isPlainObject } from "../util/object.js";
import type { SessionInfo, SessionStore } from "./session-store.js";

/** The export file format. Versioned, so a later bosun can still read what this one wrote. */
export const EXPORT_FORMAT = "bosun.session/1";

const ExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  session: z.object({
    // No whitespace: lookups trim what the person types, so such an id could never be named.
    id: z.string().regex(/^\S+$/, "must be non-empty, without spaces"),
    title: z.string(),
    directory: z.string(),
    parent: z.string().nullable(),
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
 * file is not a bosun export, its events are not numbered 1..n, a decision event is not one
 * this bosun could have recorded, its times run backwards, its parent is not here, or the id
 * already exists.
 */
export function importSession(store: SessionStore, input: unknown, source: string): SessionInfo {
  const parsed = ExportSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => `  ${i.path.join(".") || "(top)"}: ${i.message}`)
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
    if (event.type !== DECISION_EVENT) continue;
    const problem = decisionProblem(event.data);
    if (problem) throw new UsageError(`${source}: event ${event.seq} (decision): ${problem}`);
  }
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
    if (session.parent !== null && !store.get(session.parent)) {
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

/**
 * Why `data` is not a decision this bosun could have recorded (see recordDecision), or undefined
 * when it is one: the Decision shape, a seat declared in the catalog, a holder that seat admits.
 * `bosun why` renders imported decisions as it renders its own, so anything else is refused.
 */
export function decisionProblem(data: unknown): string | undefined {
  if (!isPlainObject(data)) return `data must be an object, not ${describe(data)}`;
  const { seat, holder, reasons, subject } = data;
  if (typeof seat !== "string") return `seat must be a string, not ${describe(seat)}`;
  if (typeof holder !== "string") return `holder must be a string, not ${describe(holder)}`;
  if (data.answer === undefined) return "answer is missing";
  if (!Array.isArray(reasons)) return `reasons must be an array, not ${describe(reasons)}`;
  for (const [index, reason] of reasons.entries()) {
    const problem = reasonProblem(reason);
    if (problem) return `reasons[${index}]: ${problem}`;
  }
  if (subject !== undefined) {
    if (!isPlainObject(subject)) return `subject must be an object when present, not ${describe(subject)}`;
    if (subject.step !== undefined && typeof subject.step !== "number") {
      return `subject.step must be a number, not ${describe(subject.step)}`;
    }
    if (subject.call !== undefined && typeof subject.call !== "string") {
      return `subject.call must be a string, not ${describe(subject.call)}`;
    }
  }
  const declared = findSeat(seat);
  if (!declared) return `seat "${seat}" is not a seat this bosun declares (bosun seats lists them)`;
  if (!(declared.holders as readonly string[]).includes(holder)) {
    return `seat ${seat} cannot be held by "${holder}" (holders: ${declared.holders.join(", ")})`;
  }
  return undefined;
}

const REASON_FIELDS: Record<string, "string" | "number" | "boolean"> = {
  rule: "string",
  detail: "string",
  source: "string",
  key: "string",
  line: "number",
  decisive: "boolean",
};

function reasonProblem(reason: unknown): string | undefined {
  if (!isPlainObject(reason)) return `must be an object, not ${describe(reason)}`;
  if (typeof reason.rule !== "string") return `rule must be a string, not ${describe(reason.rule)}`;
  for (const [field, type] of Object.entries(REASON_FIELDS)) {
    const value = reason[field];
    if (value !== undefined && typeof value !== type) return `${field} must be a ${type}, not ${describe(value)}`;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
