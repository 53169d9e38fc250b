/** How many of a server's last stderr lines are kept: enough to show why it failed, never its whole log. */
export const STDERR_LINES = 20;
/** A line longer than this is cut: one runaway line must not hold the memory 20 lines are meant to. */
const LINE_CHARS = 500;

/**
 * The last lines a server wrote to stderr, bounded in lines and in each line's length, so a
 * chatty server costs a fixed amount however long it runs.
 */
export class StderrTail {
  private readonly kept: string[] = [];
  private partial = "";

  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = (parts.pop() ?? "").slice(-LINE_CHARS * 2);
    for (const line of parts) this.keep(line);
  }

  /** The kept lines, the unfinished last one too; blank lines are left out. */
  lines(): string[] {
    const all = this.partial ? [...this.kept, cut(this.partial)] : [...this.kept];
    return all.filter((line) => line.trim() !== "").slice(-STDERR_LINES);
  }

  private keep(line: string): void {
    if (line.trim() === "") return;
    this.kept.push(cut(line));
    if (this.kept.length > STDERR_LINES) this.kept.shift();
  }
}

function cut(line: string): string {
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line;
}
