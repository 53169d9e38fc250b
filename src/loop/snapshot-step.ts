import type { ModelToolCall } from "../contracts/tool-calls.js";
import type { Tool } from "../contracts/tools.js";
import type { FilesSnapshot } from "../session/turns.js";
import type { SnapshotResult } from "../store/snapshots.js";

/**
 * Snapshots of the work tree for undo (store/snapshots.ts): one before each step whose calls may
 * change files, one at the end of a turn that took any. A turn that only reads costs nothing;
 * one that writes costs what git's own incremental `add` costs, not work that grows with the
 * session.
 */
export interface TurnSnapshots {
  /** Why the work tree is not snapshotted (undo.enabled false, not a git repository, a snapshot failed): recorded once. */
  unsuitable?: string;
  /** Whether the reason snapshots are off is on record already (once a run, not every step). */
  noted: boolean;
  take(): Promise<SnapshotResult>;
}

/**
 * Whether a step's calls may change files: any tool that is not a read (shell, edit, a delegate,
 * an MCP tool its server did not mark read-only). A call naming no tool runs nothing.
 */
export function mayChangeFiles(calls: readonly ModelToolCall[], tools: readonly Tool[]): boolean {
  return calls.some((call) => {
    const tool = tools.find((t) => t.name === call.name);
    if (!tool || call.invalid) return false;
    if (tool.kind === "read" || tool.kind === "web") return false;
    return !(tool.kind === "mcp" && tool.mcp?.readOnly === true);
  });
}

/** What a step (or the turn's end) records of its snapshot: the tree, why none, or nothing. */
export async function snapshotRecord(
  snapshots: TurnSnapshots,
  turn: number,
  step: number | "end",
): Promise<FilesSnapshot | undefined> {
  if (snapshots.unsuitable !== undefined) {
    if (snapshots.noted) return undefined;
    snapshots.noted = true;
    return { skipped: snapshots.unsuitable, turn };
  }
  const shot = await snapshots.take();
  if (shot.ok) {
    const named = shot.leftOut.slice(0, 100);
    return {
      tree: shot.tree,
      turn,
      step,
      ...(named.length > 0 ? { leftOut: named } : {}),
      ...(shot.leftOut.length > named.length ? { leftOutMore: true as const } : {}),
    };
  }
  // A failed snapshot (git timed out on a huge tree, a broken shadow repository) is not tried
  // again this run: each try could cost the whole timeout before every step.
  snapshots.unsuitable = `the snapshot failed: ${shot.error}`;
  snapshots.noted = true;
  return { skipped: snapshots.unsuitable, turn };
}
