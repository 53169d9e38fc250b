import { existsSync } from "node:fs";
import { loadConfig } from "../../config/load.js";
import type { Decision } from "../../contracts/decisions.js";
import { BosunError, UsageError } from "../../errors.js";
import { type RevertResult, revertSession } from "../../runtime/revert.js";
import { recordDecision } from "../../seats/record.js";
import { acquireLease, type Lease } from "../../store/lease.js";
import { findSession } from "../../store/lookup.js";
import { SessionStore } from "../../store/session-store.js";
import { workspaceOf } from "../../util/repo.js";
import { json, out } from "../output.js";

export interface UndoOptions {
  to?: string;
  force?: boolean;
  json?: boolean;
}

/**
 * `bosun undo <session> [--to <turn>] [--force]`: the last turn (or every turn from --to on)
 * undone, files and conversation (seat session.revert). Holds the session's lease meanwhile, so
 * it is refused while a run holds it. Exit 0 when undone, 1 when refused (a file changed by
 * hand, nothing to undo), 2 for bad flags, an unknown session or one in use.
 */
export async function undo(ref: string, options: UndoOptions): Promise<void> {
  const to = options.to === undefined ? undefined : turnNumber(options.to);
  const store = SessionStore.open();
  let lease: Lease | undefined;
  try {
    const session = findSession(store, ref);
    const record = (decision: Decision) => recordDecision(store, session.id, decision);
    const action = to === undefined ? "undo" : "rewind";
    try {
      lease = acquireLease(store, session.id);
    } catch (error) {
      // Another run holds the session: its files and conversation are its own until it ends.
      if (!(error instanceof UsageError)) throw error;
      record({
        seat: "session.revert",
        holder: "person",
        answer: "refuse",
        reasons: [
          { rule: `${action} asked` },
          { rule: "the session is in use", detail: error.message, decisive: true },
        ],
      });
      throw error;
    }
    if (!existsSync(session.directory))
      throw new UsageError(
        `${session.id} was started in ${session.directory}, which is gone: nothing to put back there`,
      );
    const workspace = workspaceOf(session.directory);
    const result = await revertSession(
      { store, sessionId: session.id, workspace, config: loadConfig({ cwd: workspace }), record },
      { action, ...(to !== undefined ? { to } : {}), running: false, force: options.force === true },
    );
    report(session.id, result, options.json === true);
  } finally {
    lease?.release();
    store.close();
  }
}

function turnNumber(text: string): number {
  if (!/^[1-9][0-9]*$/.test(text)) throw new UsageError(`--to takes a turn number (1, 2, ...), not "${text}"`);
  return Number(text);
}

function report(id: string, result: RevertResult, asJson: boolean): void {
  if (!result.ok) {
    if (asJson) json({ session: id, undone: false, reason: result.message, changed: result.changedSince ?? [] });
    const files = result.changedSince?.length
      ? `\nchanged since bosun's last snapshot (bosun undo --force overwrites them):\n${result.changedSince.map((p) => `  ${p}`).join("\n")}`
      : "";
    throw new BosunError(`${id}: not undone: ${result.message}${files}`, 1);
  }
  if (asJson) {
    json({ session: id, undone: true, turns: result.turns, files: result.files });
    return;
  }
  const turns = result.turns.length === 1 ? `turn ${result.turns[0]}` : `turns ${result.turns.join(", ")}`;
  const lines = result.files.map((file) => `  ${file.to === "removed" ? "removed " : "restored"} ${file.path}`);
  // Turns whose files were never snapshotted: the person is told their files stay as they are.
  const kept = result.reasons
    .filter((r) => r.rule === "files not snapshotted")
    .map((r) => `  not put back: ${r.detail}`);
  out([`${id}: undid ${turns}; ${result.files.length} file(s) put back`, ...lines, ...kept].join("\n"));
}
