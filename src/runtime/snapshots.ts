import type { LoadedConfig } from "../config/load.js";
import type { TurnSnapshots } from "../loop/snapshot-step.js";
import { type SnapshotOptions, takeSnapshot } from "../store/snapshots.js";
import { findRepoRoot, workspaceOf } from "../util/repo.js";

/** The snapshots' git commands together may take this long before a step; then it goes on without one. */
export const SNAPSHOT_TIMEOUT_MS = 30_000;

/** How undo's snapshots are taken of the workspace at `cwd`, with the config's cap. */
export function snapshotOptions(config: LoadedConfig): SnapshotOptions {
  return { maxFileBytes: config.config.undo.max_file_bytes, timeoutMs: SNAPSHOT_TIMEOUT_MS };
}

/**
 * The session's snapshots (loop/snapshot-step.ts), or why there are none: undo switched off, or
 * a folder outside any git repository — the work tree would be whatever folder bosun was started
 * in (a home folder, say), with no .gitignore to keep build output and caches out.
 */
export function turnSnapshots(config: LoadedConfig, cwd: string): TurnSnapshots {
  if (!config.config.undo.enabled) return { unsuitable: "undo.enabled is false", noted: false, take: notTaken };
  if (!findRepoRoot(cwd)) {
    return {
      unsuitable: `${cwd} is not in a git repository: only a repository's work tree is snapshotted`,
      noted: false,
      take: notTaken,
    };
  }
  const workspace = workspaceOf(cwd);
  const options = snapshotOptions(config);
  return { noted: false, take: () => takeSnapshot(workspace, options) };
}

async function notTaken(): Promise<{ ok: false; error: string }> {
  return { ok: false, error: "snapshots are off" };
}
