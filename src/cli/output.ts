import { printableAnswer, printableText } from "../util/printable.js";

/**
 * Writes a command's text to stdout, as text: what it quotes from elsewhere (a title, a file name,
 * a command, an MCP server's words) cannot drive the terminal — lines and tabs stay, every other
 * control character goes (printable.ts). A closed pipe (`bosun sessions | head`) ends quietly.
 */
export function out(text: string): void {
  outExact(printableAnswer(text));
}

/**
 * Writes exactly `text`: JSON (which escapes its own control characters), bosun's own colours
 * around fields already made printable, a patch piped to a file.
 */
export function outExact(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

export function json(value: unknown): void {
  outExact(JSON.stringify(value, null, 2));
}

export function warn(text: string): void {
  process.stderr.write(`bosun: ${printableText(text)}\n`);
}

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
