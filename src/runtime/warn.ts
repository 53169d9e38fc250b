import { printableText } from "../util/printable.js";

/** The default place a runtime's warnings go when its face names none: stderr, as bosun's other messages. */
export function warnOnStderr(text: string): void {
  process.stderr.write(`bosun: ${printableText(text)}\n`);
}
