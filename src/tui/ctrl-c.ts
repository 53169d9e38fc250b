/** A second Ctrl-C within this long of the first, during a turn, quits. */
export const CTRL_C_AGAIN_MS = 1000;

/**
 * Ctrl-C with nothing written (a draft is cleared by the input first): idle, it quits; while
 * something runs, the first interrupts it and warns, and a second within a second quits. Pure:
 * `last` is when the one before was pressed.
 */
export function ctrlC(state: { busy: boolean; now: number; last?: number }): "quit" | "interrupt" {
  if (!state.busy) return "quit";
  return state.last !== undefined && state.now - state.last <= CTRL_C_AGAIN_MS ? "quit" : "interrupt";
}

export const CTRL_C_WARNING = "interrupted; press Ctrl-C again within a second to quit";
