import { isAbsolute, resolve } from "node:path";
import { matchName } from "../rules/match.js";

/**
 * Claude Code's view of a call, so a hook written for Claude Code sees what it expects and
 * does not pass a call it never recognised. From Claude Code's hooks reference
 * (docs.anthropic.com/en/docs/claude-code/hooks, "PreToolUse Input", "Hook Input", "Structure")
 * and its built-in tools' input schemas: `Bash {command, timeout (ms), run_in_background}`,
 * `Read {file_path, offset, limit}`, `Write {file_path, content}`,
 * `Edit {file_path, old_string, new_string, replace_all}`, `Grep {pattern, path, glob}`,
 * `Glob {pattern, path}`, `LS {path}` — paths absolute. MCP tools are `mcp__<server>__<tool>`
 * there as here.
 */

type Input = Record<string, unknown>;

interface ClaudeTool {
  name: string;
  /** The arguments under Claude Code's names (added beside bosun's own). */
  input(input: Input, cwd: string): Input;
}

/** A path as Claude Code passes it: absolute (against the workspace folder the call runs in). */
const absolute = (path: unknown, cwd: string) =>
  typeof path === "string" ? (isAbsolute(path) ? path : resolve(cwd, path)) : undefined;
const present = (entries: Record<string, unknown>): Input =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

const CLAUDE_TOOLS: Record<string, ClaudeTool> = {
  shell: {
    name: "Bash",
    input: (i) => present({ timeout: i.timeout_ms, run_in_background: i.background }),
  },
  read: { name: "Read", input: (i, cwd) => present({ file_path: absolute(i.path, cwd) }) },
  write: { name: "Write", input: (i, cwd) => present({ file_path: absolute(i.path, cwd) }) },
  edit: { name: "Edit", input: (i, cwd) => present({ file_path: absolute(i.path, cwd) }) },
  grep: { name: "Grep", input: (i, cwd) => present({ path: absolute(i.path, cwd), glob: i.include }) },
  glob: { name: "Glob", input: (i, cwd) => present({ path: absolute(i.path, cwd) }) },
  list: { name: "LS", input: (i, cwd) => present({ path: absolute(i.path, cwd) }) },
};

/** Claude Code's name for a tool: `Bash` for shell, ...; any other tool (MCP's included) keeps its own. */
export function claudeToolName(tool: string): string {
  return CLAUDE_TOOLS[tool]?.name ?? tool;
}

/**
 * `tool_input`: the call's arguments under bosun's names AND Claude Code's, so a hook written
 * against either reads the real value (`.tool_input.command`, `.tool_input.file_path`). Where
 * both spell a path `path`, it is absolute, as Claude Code sends it; `input` keeps the call as
 * the model wrote it.
 */
export function claudeToolInput(tool: string, input: Input, cwd: string): Input {
  const claude = CLAUDE_TOOLS[tool];
  return claude ? { ...input, ...claude.input(input, cwd) } : { ...input };
}

export const CLAUDE_EVENT_NAMES = {
  pre_tool: "PreToolUse",
  post_tool: "PostToolUse",
  stop: "Stop",
  subagent_stop: "SubagentStop",
  user_prompt_submit: "UserPromptSubmit",
  session_start: "SessionStart",
  notification: "Notification",
  pre_compact: "PreCompact",
} as const;

/**
 * The one matcher of `hooks.*[].tools`: does this pattern name the tool? Either spelling of the
 * tool counts (bosun's `shell`, Claude Code's `Bash`). A pattern is bosun's (`*` matches anything,
 * the rest literally: `sh*`, `mcp__github__*`) or a Claude Code matcher string: `|` between
 * alternatives (`Edit|Write`), or a regular expression over the whole name (`mcp__github__.*`,
 * `Notebook.*`); `""` matches every tool, as in Claude Code. Matching is case-sensitive, as both
 * are. A pattern that is no valid regular expression is still matched as bosun's.
 */
export function hookMatches(pattern: string, tool: string): boolean {
  if (pattern === "") return true;
  const names = [...new Set([tool, claudeToolName(tool)])];
  if (pattern.split("|").some((alternative) => names.some((name) => matchName(alternative, name)))) return true;
  const regex = wholeName(pattern);
  return regex !== undefined && names.some((name) => regex.test(name));
}

const regexes = new Map<string, RegExp | undefined>();
function wholeName(pattern: string): RegExp | undefined {
  if (!regexes.has(pattern)) {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(`^(?:${pattern})$`);
    } catch {
      regex = undefined;
    }
    regexes.set(pattern, regex);
  }
  return regexes.get(pattern);
}
