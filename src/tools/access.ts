import type { ToolContext } from "../contracts/tools.js";
import { writeFileAt } from "../util/safe-write.js";

/**
 * A file tool's text through the session's FileAccess (the editor's buffers, ACP fs) when it has
 * one, else the disk. Only bytes move here: the path is the one the gate judged (the caller's
 * `approvedTarget`), and the checks that read the disk (a folder, a link swapped in) ran first.
 */

/** The text a tool works on: the editor's buffer when it reads through one, else what the disk gave. */
export async function textThrough(ctx: Pick<ToolContext, "access" | "signal">, target: string, disk: string) {
  const read = ctx.access?.read;
  return read ? await read(target, ctx.signal) : disk;
}

/** Writes the whole text: through the editor when it takes writes (it saves or keeps the buffer), else atomically to disk. */
export async function writeThrough(
  ctx: Pick<ToolContext, "access" | "signal">,
  target: string,
  content: string,
  options: { parents?: boolean } = {},
): Promise<void> {
  const write = ctx.access?.write;
  if (write) await write(target, content, ctx.signal);
  else writeFileAt(target, content, options);
}

/** What the tracker should remember of a file just read or written: the text when not the disk's. */
export function seenText(ctx: Pick<ToolContext, "access">, content: string): string | undefined {
  return ctx.access?.read || ctx.access?.write ? content : undefined;
}

/** The result's metadata of where the text came from and went to, when not the disk alone. */
export function viaMetadata(ctx: Pick<ToolContext, "access">): { via?: string; read?: string; written?: string } {
  const access = ctx.access;
  if (!access || (!access.read && !access.write)) return {};
  return {
    via: access.via,
    read: access.read ? "through the editor" : "from disk",
    written: access.write ? "through the editor" : "to disk",
  };
}
