import { existsSync, readFileSync } from "node:fs";
import { appendFileAtomic, writeFileAtomic } from "../util/safe-write.js";

/** Entries read back per project; the file is trimmed to HISTORY_KEEP lines once it grows past twice that. */
const HISTORY_READ = 500;
const HISTORY_KEEP = 2000;

/**
 * What the person typed at the interactive prompt, kept across sessions in one JSON-lines file
 * (`$BOSUN_HOME/history.jsonl`, readable only by its owner), each line tagged with its
 * project, so ↑ in a project walks what was typed there. A broken line is skipped, and a file
 * that cannot be read or written costs the history, never the session.
 */
export function loadHistory(file: string, project: string): string[] {
  let lines: string[];
  try {
    if (!existsSync(file)) return [];
    lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
  if (lines.length > 2 * HISTORY_KEEP) {
    lines = lines.slice(-HISTORY_KEEP);
    try {
      // Whole or not at all: a crash while trimming must not cost the history.
      writeFileAtomic(file, `${lines.join("\n")}\n`, { mode: 0o600 });
    } catch {
      // Trimming is housekeeping: the history read stands.
    }
  }
  const texts: string[] = [];
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as { project?: unknown; text?: unknown };
      if (entry.project === project && typeof entry.text === "string") texts.push(entry.text);
    } catch {
      // A line cut short (a crash mid-write) is skipped.
    }
  }
  return texts.slice(-HISTORY_READ);
}

export function appendHistory(file: string, project: string, text: string): void {
  try {
    // A leading newline: a line a crash cut short ends there instead of swallowing this one. An
    // append, not a rewrite (each line whole), through the verified folder and never through a link
    // at the name; a new file is made owner-only.
    appendFileAtomic(file, `\n${JSON.stringify({ project, text, at: new Date().toISOString() })}`, { mode: 0o600 });
  } catch {
    // No history this time; the session goes on.
  }
}
