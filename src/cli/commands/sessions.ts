import { readFileSync, writeFileSync } from "node:fs";
import { UsageError } from "../../errors.js";
import { readDecisions } from "../../seats/record.js";
import { openSession } from "../../session/open.js";
import { findSession } from "../../store/lookup.js";
import type { SessionInfo } from "../../store/session-store.js";
import { exportSession, importSession } from "../../store/transfer.js";
import { formatTable } from "../../util/table.js";
import { isoTime, json, out } from "../output.js";
import { loadForCommand } from "./config.js";
import { withStore } from "./store.js";

/** The JSON shape of a session in listings: public contract. */
function sessionJson(s: SessionInfo) {
  return {
    id: s.id,
    title: s.title,
    directory: s.directory,
    parent: s.parentId,
    created: isoTime(s.created),
    updated: isoTime(s.updated),
  };
}

export function listSessions(options: { all?: boolean; json?: boolean }): void {
  withStore((store) => {
    const sessions = store.list(options.all ? undefined : process.cwd());
    if (options.json) return json(sessions.map(sessionJson));
    if (sessions.length === 0) {
      return out(options.all ? "no sessions yet" : `no sessions in ${process.cwd()} (--all lists every directory)`);
    }
    const header = options.all ? ["ID", "UPDATED", "DIRECTORY", "TITLE"] : ["ID", "UPDATED", "TITLE"];
    const rows = sessions.map((s) => {
      const title = s.title || "(untitled)";
      return options.all ? [s.id, isoTime(s.updated), s.directory, title] : [s.id, isoTime(s.updated), title];
    });
    out(formatTable(header, rows));
  });
}

export function showSession(ref: string, options: { json?: boolean }): void {
  withStore((store) => {
    const session = findSession(store, ref);
    const events = store.events(session.id);
    const counts: Record<string, number> = {};
    for (const event of events) counts[event.type] = (counts[event.type] ?? 0) + 1;
    const decisions = readDecisions(store, session.id).length;
    if (options.json) return json({ ...sessionJson(session), events: events.length, decisions, eventTypes: counts });
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
      ].join("\n"),
    );
  });
}

export function deleteSession(ref: string): void {
  withStore((store) => {
    const session = findSession(store, ref);
    store.delete(session.id);
    out(`deleted ${session.id}${session.title ? ` (${session.title})` : ""}`);
  });
}

export function exportSessionCommand(ref: string, options: { output?: string }): void {
  withStore((store) => {
    const data = exportSession(store, findSession(store, ref));
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (options.output) writeFileSync(options.output, text);
    else out(text);
  });
}

export function importSessionCommand(file: string): void {
  const source = file === "-" ? "stdin" : file;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (error) {
    throw new UsageError(`${source}: cannot read a session export: ${(error as Error).message}`);
  }
  withStore((store) => {
    const session = importSession(store, parsed, source);
    out(`imported ${session.id}${session.title ? ` (${session.title})` : ""}`);
  });
}

export function newSession(options: { title?: string; json?: boolean }): void {
  const config = loadForCommand();
  withStore((store) => {
    const session = openSession(store, {
      directory: process.cwd(),
      flags: {},
      config,
      ...(options.title ? { title: options.title } : {}),
    });
    printOpened(session, options);
  });
}

export function forkSessionCommand(ref: string, options: { title?: string; json?: boolean }): void {
  const config = loadForCommand();
  withStore((store) => {
    const session = openSession(store, {
      directory: process.cwd(),
      flags: { session: ref, fork: true },
      config,
      ...(options.title ? { title: options.title } : {}),
    });
    printOpened(session, options);
  });
}

function printOpened(session: SessionInfo, options: { json?: boolean }): void {
  if (options.json) json(sessionJson(session));
  else out(session.id);
}
