/** The last `count` lines of a text (where a command's status and an error's point are). */
export function lastLines(text: string, count: number): string {
  const lines = text.replace(/\n+$/, "").split("\n");
  if (lines.length <= count) return lines.join("\n");
  return [`… ${lines.length - count} earlier lines`, ...lines.slice(-count)].join("\n");
}
