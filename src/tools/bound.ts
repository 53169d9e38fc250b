import { containedPath } from "../util/contained.js";
import { writeFileAtomic } from "../util/safe-write.js";

export interface BoundOptions {
  /** Most lines the model sees. */
  maxLines: number;
  /** Most bytes (UTF-8) the model sees, not counting the note. */
  maxBytes: number;
  /** Which end to keep: "head" for files and listings, "tail" for shell output. */
  keep: "head" | "tail";
  /** Where the full text goes when it is cut (created if missing). */
  overflowDir: string;
  /** Names the overflow file: `<overflowDir>/<callId>.txt`. */
  callId: string;
}

export interface BoundResult {
  /** The text for the model: unchanged, or the kept part with a note about the rest. */
  text: string;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
  /** Absolute path of the file holding the full text, when it was cut and the file was written. */
  overflowPath?: string;
}

/**
 * The one place tool output is bounded for the model. Text within both limits passes through
 * unchanged. Longer text keeps whole lines from the head (or tail) within both limits — part of
 * a line only when not even one whole line fits, never part of a UTF-8 character — and the full
 * text is written to an overflow file that the note points to.
 */
export function boundOutput(text: string, options: BoundOptions): BoundResult {
  const lines = splitLines(text);
  const totalLines = lines.length;
  const totalBytes = Buffer.byteLength(text, "utf8");
  if (totalLines <= options.maxLines && totalBytes <= options.maxBytes) {
    return { text, truncated: false, totalLines, totalBytes };
  }

  const maxLines = Math.max(0, Math.floor(options.maxLines));
  const maxBytes = Math.max(0, Math.floor(options.maxBytes));
  const ordered = options.keep === "head" ? lines : [...lines].reverse();
  const kept: string[] = [];
  let keptBytes = 0;
  let partial = false;
  for (const line of ordered) {
    if (kept.length >= maxLines) break;
    const bytes = Buffer.byteLength(line, "utf8");
    if (keptBytes + bytes > maxBytes) {
      // Not even one whole line fits: keep what fits of it, on a character boundary.
      if (kept.length === 0 && maxLines > 0) {
        const part = options.keep === "head" ? utf8Head(line, maxBytes) : utf8Tail(line, maxBytes);
        if (part.length > 0) {
          kept.push(part);
          keptBytes = Buffer.byteLength(part, "utf8");
          partial = true;
        }
      }
      break;
    }
    kept.push(line);
    keptBytes += bytes;
  }
  if (options.keep === "tail") kept.reverse();
  const keptText = kept.join("");

  // A partly kept line counts as cut: it is not whole in the output.
  const wholeLinesKept = partial ? 0 : kept.length;
  const cutLines = totalLines - wholeLinesKept;
  const cutBytes = totalBytes - keptBytes;

  let overflowPath: string | undefined;
  let saveError: string | undefined;
  try {
    // Atomically, in the verified folder, and never through a link someone put at the name;
    // owner-only, as every saved output is (saved-output.ts). The name is the model's call id:
    // made safe, and checked to stay in the folder all the same.
    overflowPath = writeFileAtomic(containedPath(options.overflowDir, `${safeName(options.callId)}.txt`), text, {
      parents: true,
      mode: 0o600,
      folderMode: 0o700,
    });
  } catch (error) {
    saveError = error instanceof Error ? error.message : String(error);
  }

  const what = `${plural(cutLines, "line")} (${formatBytes(cutBytes)}) of ${plural(totalLines, "line")} (${formatBytes(totalBytes)})`;
  const firstCutLine = options.keep === "head" ? wholeLinesKept + 1 : 1;
  const how = overflowPath
    ? `The full output is in ${overflowPath}: read it with read {path: "${overflowPath}", offset: ${firstCutLine}} or search it with grep.`
    : `The full output could not be saved (${saveError}).`;
  const note =
    options.keep === "head"
      ? `[Output truncated: the last ${what} not shown. ${how}]`
      : `[Output truncated: the first ${what} not shown. ${how}]`;

  let out: string;
  if (options.keep === "head")
    out = keptText.endsWith("\n") || keptText === "" ? `${keptText}${note}` : `${keptText}\n${note}`;
  else out = `${note}\n${keptText}`;
  return { text: out, truncated: true, totalLines, totalBytes, ...(overflowPath ? { overflowPath } : {}) };
}

/** Lines with their line breaks kept, so joining them gives the text back. A final line break ends a line, not starts one. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes that ends on a character boundary. */
export function utf8Head(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (end > 0 && ((buffer[end] ?? 0) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString("utf8");
}

/** The longest suffix of `text` within `maxBytes` UTF-8 bytes that starts on a character boundary. */
export function utf8Tail(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return text;
  let start = buffer.length - maxBytes;
  while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
  return buffer.subarray(start).toString("utf8");
}

function safeName(callId: string): string {
  const name = callId.replace(/[^A-Za-z0-9._-]/g, "_");
  return name === "" || name === "." || name === ".." ? "output" : name;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
