import { isAbsolute, resolve } from "node:path";
import type { ToolCall, ToolCallContent, ToolCallLocation, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { toolKind } from "./tool-kind.js";

/** What the editor is shown of a call as the model wrote it: title, kind, the files it touches, an edit's diff. */
export type ToolCallView = Pick<ToolCall, "title" | "kind" | "locations" | "content" | "rawInput">;

/** Longest title: one line in the editor's thread. */
const TITLE_MAX = 120;

/**
 * A call as the editor shows it. `cwd` makes its paths absolute (ACP wants absolute paths);
 * `before` is a written file's content before the call (undefined: not read, null: no such
 * file), so a write shows as a diff of the whole file — and none when it is not known. Pure:
 * the caller reads the file.
 */
export function toolCallView(name: string, input: unknown, cwd: string, before?: string | null): ToolCallView {
  const args = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const path = typeof args.path === "string" ? absolute(args.path, cwd) : undefined;
  const locations = locationsOf(name, args, path, cwd);
  const content = diffOf(name, args, path, before);
  return {
    title: titleOf(name, args, input),
    kind: toolKind(name),
    ...(locations.length > 0 ? { locations } : {}),
    ...(content.length > 0 ? { content } : {}),
    rawInput: input,
  };
}

/** A call's end: completed or failed, with what bosun says of it (an edit's diff kept above the words). */
export function toolResultUpdate(
  id: string,
  result: { summary: string; isError: boolean; detail?: string },
  started?: ToolCallView,
): ToolCallUpdate {
  const diffs = (started?.content ?? []).filter((c) => c.type === "diff");
  const text =
    result.detail && result.detail !== result.summary ? `${result.summary}\n\n${result.detail}` : result.summary;
  return {
    toolCallId: id,
    status: result.isError ? "failed" : "completed",
    content: [...diffs, ...(text ? [textContent(text)] : [])],
    rawOutput: { summary: result.summary, isError: result.isError },
  };
}

export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

function titleOf(name: string, args: Record<string, unknown>, input: unknown): string {
  const main = ["command", "path", "pattern", "url", "query", "name", "agent", "description"]
    .map((key) => args[key])
    .find((v) => typeof v === "string");
  const text =
    typeof main === "string" ? `${name} ${main}` : input === undefined ? name : `${name} ${JSON.stringify(input)}`;
  const line = text.split("\n")[0] ?? text;
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

function locationsOf(
  name: string,
  args: Record<string, unknown>,
  path: string | undefined,
  cwd: string,
): ToolCallLocation[] {
  if (name === "apply_patch" && typeof args.patch === "string") {
    // The files a patch names, in its own header lines (tools/patch parses them in full when it runs).
    const named = [...args.patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)];
    return [...new Set(named.map((m) => absolute((m[1] ?? m[2] ?? "").trim(), cwd)))].map((p) => ({ path: p }));
  }
  if (!path) return [];
  const line = name === "read" && typeof args.offset === "number" ? args.offset : undefined;
  return [{ path, ...(line !== undefined ? { line } : {}) }];
}

function diffOf(
  name: string,
  args: Record<string, unknown>,
  path: string | undefined,
  before: string | null | undefined,
): ToolCallContent[] {
  if (!path) return [];
  // A write's diff needs what the file held: without it (not read, too big, a replay) the
  // editor would be told the file is new.
  if (name === "write" && typeof args.content === "string" && before !== undefined) {
    return [{ type: "diff", path, oldText: before, newText: args.content }];
  }
  if (name === "edit" && typeof args.old_string === "string" && typeof args.new_string === "string") {
    // The part replaced, not the whole file: the editor shows the change in place.
    return [{ type: "diff", path, oldText: args.old_string, newText: args.new_string }];
  }
  return [];
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}
