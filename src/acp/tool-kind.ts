import type { ToolKind } from "@agentclientprotocol/sdk";

/**
 * The ACP kind of a bosun tool, by its name (built-in names are public: see README): the
 * editor picks its icon and grouping from it. What a call may do is the gate's business, not
 * this: a kind only says how to show it. MCP tools, delegates and anything unknown are "other".
 */
export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

const KINDS: Readonly<Record<string, ToolKind>> = {
  read: "read",
  list: "read",
  skill: "read",
  glob: "search",
  grep: "search",
  websearch: "search",
  edit: "edit",
  write: "edit",
  apply_patch: "edit",
  shell: "execute",
  shell_output: "execute",
  shell_kill: "execute",
  webfetch: "fetch",
  // The plan: the editor shows it as a plan update too (plan.ts).
  todo: "think",
};
