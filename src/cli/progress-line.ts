import { printableLine } from "../util/printable.js";

/**
 * A running call's progress (an MCP server's notifications/progress) in plain-text `bosun run`,
 * on stderr beside the tool lines — stdout keeps only the answer. Bounded either way: at a
 * terminal one line is drawn over in place (at most 10 times a second) and wiped before anything
 * else is written; into a file or pipe, at most one line per call every 5 seconds (the first at
 * once), so a server reporting thousands of times adds a few lines to a log, not thousands.
 */

/** One report, as the run's `tool_progress` event carries it. */
export interface ProgressReport {
  id: string;
  name: string;
  progress: number;
  total?: number;
  message?: string;
}

/** Longest line shown: a server's message is its word, of any length. */
export const PROGRESS_CHARS = 120;
/** Between two lines of one call into a file or pipe. */
export const LOGGED_EVERY_MS = 5000;
/** Between two redraws at a terminal. */
export const DRAWN_EVERY_MS = 100;

/**
 * `  … name 3/6 · message`, on one line whatever the message holds, cut to PROGRESS_CHARS — and
 * at a terminal narrower than that to its width, since a wrapped line cannot be drawn over.
 */
export function progressLine(report: ProgressReport, width = PROGRESS_CHARS): string {
  const most = Math.max(20, Math.min(PROGRESS_CHARS, width));
  const count = report.total !== undefined ? `${report.progress}/${report.total}` : `${report.progress}`;
  const message = report.message?.replace(/\s+/g, " ").trim();
  // The server's name, tool name and message are its own: shown as text, never run.
  const line = printableLine(`  … ${report.name} ${count}${message ? ` · ${message}` : ""}`);
  return line.length > most ? `${line.slice(0, most - 1)}…` : line;
}

/** Whether a call's report is shown now: its first always, later ones once the interval has passed. */
export function progressDue(lastShown: number | undefined, now: number, tty: boolean): boolean {
  return lastShown === undefined || now - lastShown >= (tty ? DRAWN_EVERY_MS : LOGGED_EVERY_MS);
}

/** The progress of a run's calls on one stream: `show` each report, `clear` before any other write. */
export function progressShown(io: {
  write: (text: string) => void;
  tty: boolean;
  /** The terminal's width (stderr.columns): a drawn line stays within it. */
  columns?: number;
  now?: () => number;
}) {
  const now = io.now ?? Date.now;
  const shown = new Map<string, number>();
  let drawn = false;
  const clear = () => {
    if (drawn) io.write("\r\x1b[2K");
    drawn = false;
  };
  return {
    show(report: ProgressReport): void {
      const at = now();
      if (!progressDue(shown.get(report.id), at, io.tty)) return;
      shown.set(report.id, at);
      if (!io.tty) {
        io.write(`${progressLine(report)}\n`);
        return;
      }
      clear();
      io.write(progressLine(report, (io.columns ?? PROGRESS_CHARS + 1) - 1));
      drawn = true;
    },
    /** Wipes the drawn line (a terminal) so the next line starts clean; a call that ended forgets its reports. */
    clear,
    done(id: string): void {
      shown.delete(id);
    },
  };
}
