import type { ModeName } from "./modes.js";

/** An agent as the rest of bosun sees it (agents/select.ts decides which one runs). */
export interface Agent {
  name: string;
  model?: string;
  prompt?: string;
  /** Set when the agent may not change anything; enforced by permission/gate/authorize.ts, not by prompt. */
  readOnly?: { holder: "code" | "config"; source?: string; key?: string; line?: number };
  mode?: ModeName;
  /** What the agent is for (config `description`): what the task tool offers it by. */
  description?: string;
  /**
   * The tools it may use, by name (`*` wildcards): of those its parent or session has. A name no
   * tool has matches nothing (MCP tools appear after config is read). Absent: every tool.
   */
  tools?: string[];
  /** Its step budget (config `max_steps` of the agent). */
  maxSteps?: number;
}
