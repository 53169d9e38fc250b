import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { FileTracker } from "../contracts/tools.js";
import type { EventMap } from "../session/events.js";
import { displayPath } from "./paths.js";

/** Files up to this size also get a content hash, so a touched-but-unchanged file is not called stale. */
const HASH_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What the tracker saw of a file: its mtime, size, content hash (files up to HASH_MAX_BYTES) and
 * when the agent read or wrote it (ms since the epoch). The session records it as it is (a
 * `file.seen` event, declared with its schema in session/schemas.ts), so a resumed session keeps it.
 */
export type Seen = Omit<Extract<EventMap["file.seen"], { mtimeMs: number }>, "path">;

export interface FileTrackerOptions {
  /** Paths inside this folder are shown relative to it in reasons; others absolute. */
  cwd?: string;
  /** The clock, for tests. */
  now?: () => number;
  /** What the session saw before this process started (a resumed session keeps its reads). */
  initial?: Iterable<[string, Seen]>;
  /** Told of every file seen, so the session can remember it across runs. */
  onSeen?: (path: string, seen: Seen | undefined) => void;
}

/**
 * Remembers, per absolute path, the size, modification time and (for files under 4 MB) a
 * sha1 of the content when the agent last read or wrote it. Relative paths resolve against
 * the process's working directory: tools pass absolute paths.
 */
export function createFileTracker(options: FileTrackerOptions = {}): FileTracker {
  const seen = new Map<string, Seen>(options.initial ?? []);
  const now = options.now ?? Date.now;
  const show = (path: string) => (options.cwd ? displayPath(options.cwd, path) : path);

  return {
    seen(path, content) {
      const absolute = resolve(path);
      const state = content === undefined ? snapshot(absolute) : textState(absolute, content);
      const entry = state ? { ...state, at: now() } : undefined;
      if (entry) seen.set(absolute, entry);
      else seen.delete(absolute);
      options.onSeen?.(absolute, entry);
    },

    staleReason(path, current) {
      const absolute = resolve(path);
      const last = seen.get(absolute);
      if (!last) return `you have not read ${show(absolute)} in this session; read it first`;
      if (current === null) return undefined;
      const when = new Date(last.at).toISOString();
      if (current !== undefined) {
        // The editor's buffer, as it is now: its text decides, whatever the disk holds.
        if (hashText(current) === last.hash) return undefined;
        return `${show(absolute)} changed in the editor since you last read it (at ${when}); read it again`;
      }
      const changed = `${show(absolute)} changed on disk since you last read it (at ${when}); read it again`;
      let stat: { mtimeMs: number; size: number };
      try {
        stat = statSync(absolute);
      } catch {
        return changed;
      }
      if (stat.size !== last.size) return changed;
      if (last.hash !== undefined) {
        // The hash decides: an mtime-only change (touch, checkout of the same content) is not a change,
        // and a same-size change within the mtime's resolution is.
        const hash = hashFile(absolute);
        if (hash !== last.hash) return changed;
        if (stat.mtimeMs !== last.mtimeMs) seen.set(absolute, { ...last, mtimeMs: stat.mtimeMs });
        return undefined;
      }
      return stat.mtimeMs === last.mtimeMs ? undefined : changed;
    },
  };
}

function snapshot(absolute: string): Omit<Seen, "at"> | undefined {
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) return undefined;
    const state: Omit<Seen, "at"> = { mtimeMs: stat.mtimeMs, size: stat.size };
    if (stat.size <= HASH_MAX_BYTES) {
      const hash = hashFile(absolute);
      if (hash !== undefined) state.hash = hash;
    }
    return state;
  } catch {
    return undefined;
  }
}

/** What the tracker keeps of text read or written elsewhere than the disk: its size and hash (the disk's mtime, if any). */
function textState(absolute: string, content: string): Omit<Seen, "at"> {
  let mtimeMs = 0;
  try {
    mtimeMs = statSync(absolute).mtimeMs;
  } catch {
    mtimeMs = 0;
  }
  return { mtimeMs, size: Buffer.byteLength(content, "utf8"), hash: hashText(content) };
}

function hashText(content: string): string {
  return createHash("sha1").update(Buffer.from(content, "utf8")).digest("hex");
}

function hashFile(absolute: string): string | undefined {
  try {
    return createHash("sha1").update(readFileSync(absolute)).digest("hex");
  } catch {
    return undefined;
  }
}
