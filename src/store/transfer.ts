import { z } from "zod";
import { UsageError } from "../errors.js";
import type { SessionInfo, SessionStore } from "./session-store.js";

/** The export file format. Versioned, so a later bosun can still read what this one wrote. */
export const EXPORT_FORMAT = "bosun.session/1";

const ExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  session: z.object({
    id: z.string().min(1),
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
 * file is not a bosun export, its events are not numbered 1..n, or the id already exists.
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
  if (store.get(session.id)) {
    throw new UsageError(`session ${session.id} already exists; delete it first to import this file again`);
  }
  const info: SessionInfo = {
    id: session.id,
    title: session.title,
    directory: session.directory,
    parentId: session.parent,
    created: timestamp(session.created, source),
    updated: timestamp(session.updated, source),
  };
  store.insertWhole(
    info,
    events.map((e) => ({ seq: e.seq, type: e.type, data: e.data, at: timestamp(e.at, source) })),
  );
  return info;
}

function timestamp(text: string, source: string): number {
  const value = Date.parse(text);
  if (Number.isNaN(value)) throw new UsageError(`${source}: "${text}" is not a date`);
  return value;
}
