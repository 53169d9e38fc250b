import type { SessionModeState } from "@agentclientprotocol/sdk";
import { MODE_NAMES, MODE_SUMMARIES, type ModeName } from "../contracts/modes.js";

/** bosun's permission modes as the editor's session modes, `current` selected. */
export function modeState(current: string): SessionModeState {
  return {
    currentModeId: current,
    availableModes: MODE_NAMES.map((name) => ({ id: name, name, description: MODE_SUMMARIES[name] })),
  };
}

export function isMode(id: string): id is ModeName {
  return (MODE_NAMES as readonly string[]).includes(id);
}
