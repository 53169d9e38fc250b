/**
 * How wide and how colourful output to a stream may be. One place, so every command that fits
 * its output to the terminal (`bosun why`, `bosun seats`) agrees: piped output gets the
 * `COLUMNS` a script asked for (else 80) and never an ANSI code.
 */

interface Stream {
  isTTY?: boolean;
  columns?: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The stream's width when it is a terminal; else `COLUMNS` when it is a positive number; else 80. */
export function outputWidth(stream: Stream = process.stdout, env: Env = process.env): number {
  if (stream.isTTY && typeof stream.columns === "number" && stream.columns > 0) return stream.columns;
  const columns = Number.parseInt(env.COLUMNS ?? "", 10);
  return Number.isFinite(columns) && columns > 0 ? columns : 80;
}

/**
 * Colour only for a terminal, and never with `NO_COLOR` set (no-color.org: any non-empty value).
 * `FORCE_COLOR` set to anything but "0" or "false" turns it on even when piped.
 */
export function colorOn(stream: Stream = process.stdout, env: Env = process.env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return stream.isTTY === true;
}
