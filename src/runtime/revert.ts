import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LoadedConfig } from "../config/load.js";
import type { Decision, Reason } from "../contracts/decisions.js";
import {
  judgeHandEdits,
  pickTurns,
  type RevertAsk,
  restorePlan,
  type TurnChange,
  type TurnTrees,
} from "../session/revert.js";
import { lastRecordedTree, revertedTurns, type Turn, turnsOf } from "../session/turns.js";
import type { SessionStore } from "../store/session-store.js";
import { restorePaths, takeSnapshot, treeChanges } from "../store/snapshots.js";
import { snapshotOptions } from "./snapshots.js";

/**
 * Undo, redo and rewind (seat session.revert): the turns picked from the session's events, the
 * files they changed put back from the snapshots, the turns marked reverted or restored so the
 * model's conversation leaves them out or takes them back. Every answer is recorded, a refusal
 * too. The caller holds the session (its lease); this checks nothing about other processes.
 */
export interface RevertDeps {
  store: SessionStore;
  sessionId: string;
  /** The work tree the session's snapshots are of. */
  workspace: string;
  config: LoadedConfig;
  record(decision: Decision): void;
}

export interface RevertRequest extends RevertAsk {
  /** Overwrite files changed since bosun's last snapshot (--force; the person said yes when shown them). */
  force: boolean;
}

export interface FileMove {
  path: string;
  /** What the file becomes: written back, or removed (it did not exist then). */
  to: "restored" | "removed";
}

export type RevertResult =
  | { ok: true; answer: "revert" | "restore"; turns: number[]; files: FileMove[]; reasons: Reason[] }
  | { ok: false; reasons: Reason[]; message: string; changedSince?: string[] };

export async function revertSession(deps: RevertDeps, ask: RevertRequest): Promise<RevertResult> {
  const events = deps.store.events(deps.sessionId);
  const picked = pickTurns(events, ask);
  if (picked.answer === "refuse") return refuse(deps, picked.reasons);
  const options = snapshotOptions(deps.config);
  const changes: TurnChange[] = [];
  const trees = new Map<number, TurnTrees>();
  try {
    for (const turn of picked.turns) {
      if (!turn.before || !turn.after) continue;
      const { before, after, beforeLeftOut, afterLeftOut } = turn;
      trees.set(turn.turn, {
        before,
        after,
        ...(beforeLeftOut ? { beforeLeftOut } : {}),
        ...(afterLeftOut ? { afterLeftOut } : {}),
      });
      for (const change of await treeChanges(deps.workspace, before, after, options))
        changes.push({ turn: turn.turn, path: change.path, status: change.status });
    }
  } catch (error) {
    // The shadow repository was deleted or broken: nothing is put back, and the person is told why.
    const detail = error instanceof Error ? error.message : String(error);
    return refuse(deps, [...picked.reasons, { rule: "the snapshots cannot be read", detail, decisive: true }]);
  }
  const { plan, kept } = restorePlan(picked.answer, changes, trees);
  let changedSince: string[] = [];
  if (plan.size > 0) {
    const now = await takeSnapshot(deps.workspace, options);
    const last = lastRecordedTree(events);
    if (!now.ok || !last)
      return refuse(deps, [
        ...picked.reasons,
        { rule: "cannot compare the work tree", detail: now.ok ? "no snapshot on record" : now.error, decisive: true },
      ]);
    const since = new Set([
      ...(await treeChanges(deps.workspace, last, now.tree, options)).map((c) => c.path),
      // Too large to snapshot now: what it holds cannot be told from what bosun saw.
      ...now.leftOut,
    ]);
    changedSince = [...plan.keys()].filter((path) => since.has(path)).sort();
  }
  const judged = judgeHandEdits(changedSince, ask.force);
  if (judged.answer === "refuse") {
    const result = refuse(deps, [...picked.reasons, ...judged.reasons]);
    return { ...result, changedSince };
  }
  let files: FileMove[];
  try {
    files = await putBack(deps, plan);
  } catch (error) {
    // Part may be back already: said as it is, the turns left as they were on record.
    const detail = `${error instanceof Error ? error.message : String(error)}; some files may have been put back`;
    return refuse(deps, [...picked.reasons, { rule: "putting the files back failed", detail, decisive: true }]);
  }
  const after = plan.size > 0 ? await takeSnapshot(deps.workspace, options) : undefined;
  const turns = picked.turns.map((turn) => turn.turn);
  const reasons: Reason[] = [
    ...picked.reasons,
    ...judged.reasons,
    { rule: "files", detail: files.length === 0 ? "none changed" : files.map(fileWords).join(", ") },
    ...(kept.length > 0
      ? [{ rule: "too large to have been snapshotted, left as they are", detail: kept.join(", ") }]
      : []),
  ];
  deps.store.atomically(() => {
    deps.record({ seat: "session.revert", holder: "person", answer: picked.answer, reasons });
    deps.store.append(deps.sessionId, picked.answer === "revert" ? "turn.reverted" : "turn.restored", {
      turns,
      ...(after?.ok ? { tree: after.tree } : {}),
    });
  });
  return { ok: true, answer: picked.answer, turns, files, reasons };
}

/** The files written back from their trees, or removed where the tree does not hold them. */
async function putBack(deps: RevertDeps, plan: ReadonlyMap<string, string>): Promise<FileMove[]> {
  const byTree = new Map<string, string[]>();
  for (const [path, tree] of plan) byTree.set(tree, [...(byTree.get(tree) ?? []), path]);
  const options = snapshotOptions(deps.config);
  const files: FileMove[] = [];
  for (const [tree, paths] of byTree) {
    await restorePaths(deps.workspace, tree, paths, options);
    // restorePaths removes what the tree does not hold: what is there now was written back.
    for (const path of paths) files.push({ path, to: existsSync(join(deps.workspace, path)) ? "restored" : "removed" });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

function fileWords(file: FileMove): string {
  return `${file.path} (${file.to})`;
}

function refuse(deps: RevertDeps, reasons: Reason[]): Extract<RevertResult, { ok: false }> {
  deps.record({ seat: "session.revert", holder: "person", answer: "refuse", reasons });
  // The refusal's own reason comes last, after the turns it would have taken.
  const decisive = reasons.filter((reason) => reason.decisive).at(-1) ?? reasons.at(-1);
  const message = decisive ? `${decisive.rule}${decisive.detail ? `: ${decisive.detail}` : ""}` : "refused";
  return { ok: false, reasons, message };
}

/** The session's turns for a person to pick from (/rewind): number, message, whether undone. */
export function turnList(store: SessionStore, sessionId: string): Array<Turn & { reverted: boolean }> {
  const events = store.events(sessionId);
  const reverted = revertedTurns(events);
  return turnsOf(events).map((turn) => ({ ...turn, reverted: reverted.has(turn.turn) }));
}

/** A runtime's undo: refused while one of its turns runs (`running`). */
export function revertHandles(
  deps: RevertDeps,
  running: () => boolean,
): { revert(ask: Omit<RevertRequest, "running">): Promise<RevertResult>; turns(): ReturnType<typeof turnList> } {
  return {
    revert: (ask) => revertSession(deps, { ...ask, running: running() }),
    turns: () => turnList(deps.store, deps.sessionId),
  };
}
