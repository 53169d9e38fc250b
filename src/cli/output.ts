/** Writes to stdout; a closed pipe (`bosun sessions | head`) ends quietly instead of crashing. */
export function out(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

export function json(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

export function warn(text: string): void {
  process.stderr.write(`bosun: ${text}\n`);
}

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
