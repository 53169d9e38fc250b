import { readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/safe-write.js";

/** Where a running `bosun serve` says where it listens: beside its token, owner-only. */
export function addressFile(dataFolder: string): string {
  return join(dataFolder, "server", "address.json");
}

interface Listening {
  origin: string;
  pid: number;
}

/** Said when the server listens; `bosun attach` sends this machine's token only to that origin. */
export function recordAddress(dataFolder: string, origin: string): void {
  const listening: Listening = { origin, pid: process.pid };
  writeFileAtomic(addressFile(dataFolder), `${JSON.stringify(listening)}\n`, { mode: 0o600 });
}

/** Unsaid when it stops (when it is still this process's). */
export function forgetAddress(dataFolder: string): void {
  if (listeningNow(dataFolder)?.pid !== process.pid) return;
  try {
    unlinkSync(addressFile(dataFolder));
  } catch {
    // Gone already.
  }
}

/** Where this machine's server listens now: recorded by a process that is still alive; else undefined. */
export function listeningNow(dataFolder: string): Listening | undefined {
  let recorded: Listening;
  try {
    recorded = JSON.parse(readFileSync(addressFile(dataFolder), "utf8")) as Listening;
  } catch {
    return undefined;
  }
  if (typeof recorded.origin !== "string" || !Number.isInteger(recorded.pid)) return undefined;
  try {
    process.kill(recorded.pid, 0);
  } catch {
    // EPERM: alive, another user's (not ours to trust); ESRCH: gone.
    return undefined;
  }
  return recorded;
}
