import { existsSync } from "node:fs";
import { loadConfig } from "../../config/load.js";
import { BosunError, UsageError } from "../../errors.js";
import { snapshotOptions } from "../../runtime/snapshots.js";
import { turnsOf } from "../../session/turns.js";
import { findSession } from "../../store/lookup.js";
import { treeDiff } from "../../store/snapshots.js";
import { workspaceOf } from "../../util/repo.js";
import { out, outExact } from "../output.js";
import { READ_ONLY, withStore } from "./store.js";

/**
 * `bosun diff <session> [--turn n]`: what a turn changed in the work tree, as a unified diff of
 * its snapshots (before its first step that could change files, and at its end). Default: the
 * latest turn that changed files. Exit 0 with the diff (empty when the turn changed nothing), 1
 * when the turn has no snapshots, 2 for bad flags, an unknown session or turn.
 */
export async function diff(ref: string, options: { turn?: string }): Promise<void> {
  const asked = options.turn === undefined ? undefined : turnNumber(options.turn);
  const { session, turns } = withStore((store) => {
    const session = findSession(store, ref);
    return { session, turns: turnsOf(store.events(session.id)) };
  }, READ_ONLY);
  if (asked !== undefined && (asked > turns.length || asked < 1))
    throw new UsageError(`${session.id} has no turn ${asked} (it has ${turns.length})`);
  const turn = asked !== undefined ? turns[asked - 1] : turns.filter((t) => t.before && t.after).at(-1);
  if (!turn) throw new BosunError(`${session.id}: no turn changed files with a snapshot to show`, 1);
  if (!turn.before || !turn.after) {
    const why = turn.skipped ? `no snapshot was taken (${turn.skipped})` : "it ran no call that could change files";
    throw new BosunError(`${session.id}: turn ${turn.turn} has no snapshots: ${why}`, 1);
  }
  if (!existsSync(session.directory))
    throw new UsageError(`${session.id} was started in ${session.directory}, which is gone`);
  const workspace = workspaceOf(session.directory);
  const text = await treeDiff(workspace, turn.before, turn.after, snapshotOptions(loadConfig({ cwd: workspace })));
  // A patch piped to a file or `git apply` is the files' bytes; at a terminal it is text to read.
  if (text !== "") (process.stdout.isTTY ? out : outExact)(text);
}

function turnNumber(text: string): number {
  if (!/^[1-9][0-9]*$/.test(text)) throw new UsageError(`--turn takes a turn number (1, 2, ...), not "${text}"`);
  return Number(text);
}
