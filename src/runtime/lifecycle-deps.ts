import type { PromptHooks } from "../loop/prompt.js";
import type { StopHooks } from "../loop/stop.js";
import type { GateDeps } from "../permission/gate/gate.js";

/**
 * A session's lifecycle hooks as a turn's deps: run through the gate as things stand (so a
 * repository's run only once project.command let them, confined). Only a session's own turn
 * gets them; a delegate's turn has none.
 */
export function lifecycleDeps(gate: () => Readonly<GateDeps>): { stopHooks: StopHooks; promptHooks: PromptHooks } {
  // Loaded when a turn ends or starts, not at start-up.
  const lifecycle = () => import("../permission/gate/lifecycle.js");
  return {
    stopHooks: async (stop) => (await lifecycle()).runStopHooks(gate(), stop),
    promptHooks: async (prompt) => (await lifecycle()).runPromptHooks(gate(), prompt),
  };
}
