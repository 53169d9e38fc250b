import { type Rule, rulesFromConfig } from "./rules.js";

/**
 * The built-in rules, the lowest layer: reading is free (but `.env` files hold secrets and ask,
 * and processes' environments are not read),
 * changing files, running commands, leaving the workspace, the web and MCP tools ask. Starting
 * a delegate is free because a delegate never has more authority than its parent. Any config
 * layer may change these; the mode preset (modes.ts) comes right after them.
 */
export const DEFAULT_PERMISSION = {
  // Processes' environments hold keys, bosun's own included (which it never gives its tools).
  read: {
    "*": "allow",
    "**/.env": "ask",
    "**/.env.*": "ask",
    "**/.env.example": "allow",
    "/proc/**/environ": "deny",
  },
  edit: "ask",
  shell: "ask",
  external_directory: "ask",
  web: "ask",
  delegate: "allow",
  mcp: "ask",
  skill: "allow",
  // Asking the person a question changes nothing; a rule may still turn it off (`question: deny`).
  question: "allow",
  // Reading or stopping a background job this run started: its command was judged when it started.
  job: "allow",
} as const;

export function defaultRules(): Rule[] {
  return rulesFromConfig(DEFAULT_PERMISSION, { layer: "default", file: "built-in" });
}
