import { loadConfig } from "../../config/load.js";
import type { Decision } from "../../contracts/decisions.js";
import { BosunError, UsageError } from "../../errors.js";
import { selectSessionModel } from "../../model/session-model.js";
import { settleTrust } from "../../runtime/authority.js";
import { recordDecision } from "../../seats/record.js";
import { recoverInterruptedCalls } from "../../session/recover.js";
import { acquireLease, type Lease } from "../../store/lease.js";
import { findSession } from "../../store/lookup.js";
import { SessionStore } from "../../store/session-store.js";
import { json, out } from "../output.js";

/**
 * `bosun compact <session>`: summarises the session's older history into a checkpoint, as a
 * run would near the context window (seat compaction.summary, reason "manual"). Holds the
 * session's lease meanwhile, like a run. Exit 0 when compacted (or nothing to compact), 1 when
 * the summary failed, 2 for an unknown session, a session in use, or a model that cannot be used.
 */
export async function compact(ref: string, options: { json?: boolean }): Promise<void> {
  const cwd = process.cwd();
  const loaded = loadConfig({ cwd });
  const store = SessionStore.open();
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => controller.abort(new Error(`cancelled by ${signal}`));
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let lease: Lease | undefined;
  try {
    const session = findSession(store, ref);
    // A repository's own config applies only as far as it is already trusted: compact never asks.
    const trusted = await settleTrust({
      config: loaded,
      reload: (filterProject) => loadConfig({ cwd, filterProject }),
      trustFlag: false,
      interactive: false,
      store,
      cwd,
      signal: controller.signal,
    });
    const config = trusted.config;
    const { compactSession, compactionModel } = await import("../../compaction/compact.js");
    const set = store.atomically(() => {
      const held = acquireLease(store, session.id, {
        onLost: () => controller.abort(new Error("another run took over this session")),
      });
      try {
        recoverInterruptedCalls(store, session.id, held);
        if (trusted.decision) recordDecision(store, session.id, trusted.decision);
        const model = selectSessionModel(store, session, { config });
        const summaryModel = compactionModel(config, model);
        if (!summaryModel.ok) throw new UsageError(summaryModel.problem);
        return { lease: held, model };
      } catch (error) {
        held.release();
        throw error;
      }
    });
    lease = set.lease;
    process.once("exit", () => lease?.release());
    const record = (decision: Decision) => recordDecision(store, session.id, decision);
    // The session's pre_compact hooks are told of this compaction too (trigger "manual").
    const { manualCompactHooks } = await import("../../runtime/compact-hooks.js");
    const { compactInstructions } = await import("../../loop/window.js");
    const preCompact = await manualCompactHooks({
      config,
      store,
      sessionId: session.id,
      cwd,
      ...(trusted.decision ? { trust: trusted.decision } : {}),
      record,
      signal: controller.signal,
    });
    const instructions = preCompact ? await compactInstructions({ preCompact, record }, "manual") : undefined;
    const result = await compactSession({
      ...(instructions ? { instructions } : {}),
      store,
      sessionId: session.id,
      model: set.model,
      config,
      signal: controller.signal,
      record,
      reason: "manual",
    });
    if (!result.ok) {
      if (result.nothing) {
        if (options.json) json({ session: session.id, compacted: false, reason: result.error });
        else out(`${session.id}: ${result.error}`);
        return;
      }
      throw new BosunError(`compaction of ${session.id} failed: ${result.error}`, 1);
    }
    const { checkpoint } = result;
    if (options.json) {
      json({ session: session.id, compacted: true, seq: result.seq, ...checkpoint });
      return;
    }
    const kept =
      result.keptMessages === 0
        ? "nothing kept verbatim"
        : `${result.keptMessages} message(s) kept verbatim from event ${checkpoint.keptFrom}`;
    out(
      `compacted ${session.id}: ~${checkpoint.tokensBefore} → ~${checkpoint.tokensAfter} tokens (estimated); summary by ${checkpoint.model}, ${kept}; the full history stays in the store (event ${result.seq})`,
    );
  } finally {
    lease?.release();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    store.close();
  }
}
