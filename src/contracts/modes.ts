/**
 * The permission modes' names, the default one, and what each means in one line: the seat catalog
 * and the config schema state them; permission/rules/modes.ts holds what each mode does.
 */
export const MODE_NAMES = ["auto", "approve", "smart", "chat"] as const;
export type ModeName = (typeof MODE_NAMES)[number];

export const DEFAULT_MODE: ModeName = "approve";

/** One line per mode for the README and `bosun seats`; generated tables quote it. */
export const MODE_SUMMARIES: Readonly<Record<ModeName, string>> = {
  approve:
    "reads, shell commands proven read-only and MCP tools annotated read-only run; edits, other commands, paths outside the workspace, the web and other MCP tools ask",
  smart:
    "like approve, but a shell command in no table that would ask goes to an LLM judge first (seat call.judge): judged read-only, it runs; anything else, or a judge error, asks",
  auto: "everything runs unless a rule denies it: every ask becomes allow (a call that cannot be analysed still asks; read-only agents and policy still deny)",
  chat: "no tool runs: the model is offered no tools, and any call it makes anyway is denied",
};
