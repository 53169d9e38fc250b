import type { RevertResult } from "../runtime/revert.js";

/** What /undo, /redo and /rewind say in the transcript: the turns and files, or why not. */
export function revertText(action: "undo" | "redo" | "rewind", result: RevertResult): string {
  if (!result.ok) return `/${action}: not done: ${result.message}`;
  const turns = result.turns.length === 1 ? `turn ${result.turns[0]}` : `turns ${result.turns.join(", ")}`;
  const verb = result.answer === "restore" ? "redid" : "undid";
  const files = result.files.map((file) => `  ${file.to === "removed" ? "removed " : "restored"} ${file.path}`);
  const kept = result.reasons
    .filter((r) => r.rule === "files not snapshotted")
    .map((r) => `  not put back: ${r.detail}`);
  return [`${verb} ${turns}; ${result.files.length} file(s) put back`, ...files, ...kept].join("\n");
}

/** A turn's message as one line of the /rewind picker. */
export function turnLine(text: string, width = 60): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}
