import type { ModeName } from "./modes.js";

/** An agent as the rest of bosun sees it (agents/select.ts decides which one runs). */
export interface Agent {
  name: string;
  model?: string;
  prompt?: string;
  /** Set when the agent may not change anything; enforced by permission/gate/authorize.ts, not by prompt. */
  readOnly?: { holder: "code" | "config"; source?: string; key?: string; line?: number };
  mode?: ModeName;
  /** The tools it may use (names or `*` globs); unset: all its session or parent has. */
  tools?: string[];
  /** Its step budget as a delegate. */
  maxSteps?: number;
}
