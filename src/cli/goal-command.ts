import { goalAnswer } from "../input/goal-command.js";
import type { SessionSlot } from "./session-slot.js";

/**
 * `/goal` in the interactive session (goalAnswer): kept with the session's options, so a switch
 * of model, agent or mode keeps it; a new session starts without.
 */
export function goalCommand(slot: SessionSlot, args: string): string {
  const { goal, text } = goalAnswer(slot.current.goal, args, slot.live?.config.config.goal);
  const { goal: _, ...rest } = slot.current;
  slot.current = goal ? { ...rest, goal } : rest;
  return text;
}
