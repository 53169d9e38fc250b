import { randomUUID } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { UsageError } from "../errors.js";
import type { SessionStore } from "./session-store.js";

/**
 * Session leases: at most one run holds a session at a time. The holder is a process, named by
 * host and pid; the lease row lives in the session database (table `session_leases`, migration 2)
 * and is taken and checked inside one write transaction, so two runs starting together cannot
 * both get it.
 *
 * Is the holder still alive?
 * - Same machine: the pid is asked directly (`kill(pid, 0)`, and on Linux not a zombie), so a run
 *   killed with SIGKILL is known dead at once. On Linux the lease also records the process's start
 *   time, so a pid reused by another process (a container's pid 1 after a restart) is not taken
 *   for the old holder.
 * - Another machine sharing the database (or another pid namespace with the same host name): its
 *   pids mean nothing here, so the holder counts as alive while its heartbeat is newer than
 *   `staleMs`. A holder heartbeats every `heartbeatMs`; `staleMs` must leave room for a beat that
 *   waited on the database's busy timeout (15 s).
 *
 * When in doubt the holder is alive: a refused run can be retried, a stolen session cannot be
 * repaired.
 */

export interface Lease {
  readonly sessionId: string;
  readonly token: string;
  /** The dead holder whose lease this one replaced, if any (recovery names it in the ledger). */
  readonly replaced?: LeaseHolder;
  /**
   * Refreshes the heartbeat. False when the lease is no longer this run's (its session was
   * deleted, or another run found it stale and took it); the heartbeat timer then stops.
   */
  heartbeat(): boolean;
  /**
   * Gives the lease up, only if it is still this run's, and stops the heartbeat. Idempotent, and
   * never throws: a lease it could not delete is replaced once this process has exited.
   * Call it before the store is closed; with the store closed it can do nothing.
   */
  release(): void;
}

export interface LeaseOptions {
  /** The holder's pid, recorded in the lease. Default: this process. */
  pid?: number;
  /** The holder's host name. Default: `os.hostname()`. */
  host?: string;
  now?: () => number;
  /** A holder on another machine whose heartbeat is older than this is dead. Default 30 s. */
  staleMs?: number;
  /** How often the heartbeat is refreshed (an unref'd timer); 0 for no timer. Default 10 s. */
  heartbeatMs?: number;
  /** Called once when the heartbeat timer finds the lease lost (e.g. to cancel the run). */
  onLost?: () => void;
}

export interface LeaseHolder {
  pid: number;
  host: string;
  /** When the lease was taken and last refreshed (ms since the epoch, the holder's clock). */
  acquired: number;
  heartbeat: number;
  alive: boolean;
  /** Why the holder counts as alive or dead. */
  verdict: string;
}

export const LEASE_STALE_MS = 30_000;
export const LEASE_HEARTBEAT_MS = 10_000;

/** A row of `session_leases`, as stored. */
export interface LeaseRow {
  session_id: string;
  pid: number;
  host: string;
  process: string | null;
  token: string;
  acquired: number;
  heartbeat: number;
}

/** Where a pid means something (boot and pid namespace) and which process it named (start time). */
interface ProcessMark {
  scope: string;
  start: string;
}

/**
 * Takes the session's lease for this run, or throws a `UsageError` (exit 2) naming the live
 * holder. A dead holder's lease is replaced. May be called inside `store.atomically` (it then
 * runs as a savepoint of the caller's transaction, e.g. together with opening the session).
 */
export function acquireLease(store: SessionStore, sessionId: string, options: LeaseOptions = {}): Lease {
  const pid = options.pid ?? process.pid;
  const host = options.host ?? hostname();
  const now = options.now ?? Date.now;
  const staleMs = options.staleMs ?? LEASE_STALE_MS;
  const heartbeatMs = options.heartbeatMs ?? LEASE_HEARTBEAT_MS;
  if (!Number.isInteger(pid) || pid <= 0)
    throw new Error(`a lease holder's pid must be a positive integer, not ${pid}`);
  const token = randomUUID();
  const mark = processMark(pid);

  const replaced = store.atomically(() => {
    if (!store.get(sessionId)) throw new UsageError(`no session ${sessionId}`);
    const at = now();
    const current = readRow(store, sessionId);
    let previous: LeaseHolder | undefined;
    if (current) {
      previous = judge(current, { host, now: at, staleMs });
      if (previous.alive) throw inUse(sessionId, previous, host);
    }
    store.db
      .prepare(
        `INSERT INTO session_leases (session_id, pid, host, process, token, acquired, heartbeat)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (session_id) DO UPDATE SET
           pid = excluded.pid, host = excluded.host, process = excluded.process, token = excluded.token,
           acquired = excluded.acquired, heartbeat = excluded.heartbeat`,
      )
      .run(sessionId, pid, host, mark ? JSON.stringify(mark) : null, token, at, at);
    return previous;
  });

  let timer: NodeJS.Timeout | undefined;
  let lost = false;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  const heartbeat = (): boolean => {
    if (lost) return false;
    const changes = store.db
      .prepare("UPDATE session_leases SET heartbeat = ? WHERE session_id = ? AND token = ?")
      .run(now(), sessionId, token).changes;
    if (changes === 0) {
      lost = true;
      stop();
    }
    return changes > 0;
  };
  if (heartbeatMs > 0) {
    timer = setInterval(() => {
      if (!store.db.open) return stop();
      try {
        if (!heartbeat()) options.onLost?.();
      } catch {
        // The database was busy past its timeout: the next beat tries again, well within staleMs.
      }
    }, heartbeatMs);
    timer.unref();
  }
  return {
    sessionId,
    token,
    ...(replaced ? { replaced } : {}),
    heartbeat,
    release() {
      stop();
      lost = true;
      if (!store.db.open) return;
      try {
        store.db.prepare("DELETE FROM session_leases WHERE session_id = ? AND token = ?").run(sessionId, token);
      } catch {
        // A full disk or a lock held too long: the row stays, naming this process, and the next run
        // replaces it once this process is gone (recorded). Whatever ended the run is the error
        // shown, never this one.
      }
    },
  };
}

/** The session's current lease holder and whether it is alive, or undefined when none holds it. */
export function leaseHolder(
  store: SessionStore,
  sessionId: string,
  options: Pick<LeaseOptions, "host" | "now" | "staleMs"> = {},
): LeaseHolder | undefined {
  const row = readRow(store, sessionId);
  if (!row) return undefined;
  return judge(row, {
    host: options.host ?? hostname(),
    now: (options.now ?? Date.now)(),
    staleMs: options.staleMs ?? LEASE_STALE_MS,
  });
}

/** True when the lease with this token is the session's current one. */
export function holdsLease(store: SessionStore, sessionId: string, token: string): boolean {
  return readRow(store, sessionId)?.token === token;
}

function readRow(store: SessionStore, sessionId: string): LeaseRow | undefined {
  return store.db.prepare("SELECT * FROM session_leases WHERE session_id = ?").get(sessionId) as LeaseRow | undefined;
}

function judge(row: LeaseRow, here: { host: string; now: number; staleMs: number }): LeaseHolder {
  const holder = { pid: row.pid, host: row.host, acquired: row.acquired, heartbeat: row.heartbeat };
  const recorded = parseMark(row.process);
  const myScope = processMark(process.pid)?.scope;
  const sameMachine =
    row.host === here.host && (recorded === undefined || myScope === undefined || recorded.scope === myScope);
  if (!sameMachine) {
    const age = here.now - row.heartbeat;
    const alive = age < here.staleMs;
    const where = row.host === here.host ? "another pid namespace or boot" : "another host";
    return {
      ...holder,
      alive,
      verdict: `${where}; last heartbeat ${Math.round(age / 1000)} s ago (stale after ${Math.round(here.staleMs / 1000)} s)`,
    };
  }
  const state = pidState(row.pid);
  if (state !== "running") return { ...holder, alive: false, verdict: state === "zombie" ? "exited" : "not running" };
  const current = processMark(row.pid);
  if (recorded && current && current.start !== recorded.start) {
    return { ...holder, alive: false, verdict: "exited; its pid now belongs to another process" };
  }
  return { ...holder, alive: true, verdict: "running" };
}

function inUse(sessionId: string, holder: LeaseHolder, host: string): UsageError {
  const on = holder.host === host ? "" : ` on ${holder.host}`;
  const stop = on === "" ? `stop it (kill ${holder.pid})` : "stop it";
  return new UsageError(
    `session ${sessionId} is in use by bosun pid ${holder.pid}${on} (since ${time(holder.acquired)}); wait for it to finish or ${stop}`,
  );
}

function time(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Whether a pid names a live process: `kill(pid, 0)`, then (Linux) not a zombie. Unsure means running. */
function pidState(pid: number): "running" | "zombie" | "gone" {
  if (!Number.isInteger(pid) || pid <= 0) return "gone";
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH" ? "gone" : "running";
  }
  const stat = procStat(pid);
  return stat && (stat[0] === "Z" || stat[0] === "X") ? "zombie" : "running";
}

/** The fields of /proc/<pid>/stat after the command name (state first), or undefined off Linux. */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may itself hold spaces and parentheses.
    return text
      .slice(text.lastIndexOf(")") + 2)
      .trim()
      .split(" ");
  } catch {
    return undefined;
  }
}

let scope: string | null | undefined;

function processMark(pid: number): ProcessMark | undefined {
  if (scope === undefined) {
    try {
      const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
      scope = `${boot} ${readlinkSync("/proc/self/ns/pid")}`;
    } catch {
      scope = null;
    }
  }
  // Field 22 of /proc/<pid>/stat, the start time in clock ticks since boot; 20th after the name.
  const start = procStat(pid)?.[19];
  return scope !== null && start !== undefined ? { scope, start } : undefined;
}

function parseMark(text: string | null): ProcessMark | undefined {
  if (text === null) return undefined;
  try {
    const mark = JSON.parse(text) as Partial<ProcessMark>;
    return typeof mark.scope === "string" && typeof mark.start === "string"
      ? { scope: mark.scope, start: mark.start }
      : undefined;
  } catch {
    return undefined;
  }
}
