import { mayChange } from "../permission/rules/call-requests.js";
import { batches, mapLimit } from "../util/pool.js";
import type { Judged } from "./gate-call.js";

/**
 * The schedule step. Calls that only read run together (at most `parallel` at once); a call that
 * may change anything runs alone, after all before it and before all after it, in the model's
 * order. So no sibling call can change what a call was judged on (one call makes a link, the
 * next writes through it) or race its edit.
 */
export async function schedule(
  calls: readonly Judged[],
  parallel: number,
  run: (call: Judged) => Promise<void>,
): Promise<void> {
  for (const batch of batches(calls, (call) => mayChange(call.judged))) {
    await mapLimit(batch, parallel, run);
  }
}
