import { ACTIONS, type Action } from "../contracts/requests.js";
import { isMapping } from "../util/front-matter.js";
import { AgentEntrySchema } from "./schema.js";

/*
 * Agent files of other tools, mapped to bosun's agent settings honestly: what has a bosun meaning
 * is carried over, what does not is left out and listed (never read as something it is not —
 * opencode's `mode` is its agent kind, never a permission mode). A bad or unknown key of such a
 * file is skipped, never fatal: the file was written for another program.
 */

/** A front-matter path (the key as written in the file). */
export type SourcePath = readonly (string | number)[];

export interface MappedAgent {
  /** bosun's settings for the agent (keys of `agent.<name>`), the prompt not included. */
  entry: Record<string, unknown>;
  /** Where each of `entry`'s keys was written (a permission action: `permission.<action>`). */
  from: Map<string, SourcePath>;
  /** Keys left out, each with why: listed in the agent.catalog decision. */
  skipped: string[];
  /** A valid `name:` that names the agent instead of its file name (Claude Code's files). */
  name?: string;
}

/** The tools bosun offers an agent: the built-in ones, skills, delegation and every MCP tool. */
export const BOSUN_TOOLS = [
  "read",
  "list",
  "glob",
  "grep",
  "edit",
  "apply_patch",
  "write",
  "shell",
  "shell_output",
  "shell_kill",
  "todo",
  "webfetch",
  "websearch",
  "skill",
  "task",
  "question",
  "mcp__*",
];

/** An agent's name: letters, digits, - and _ (a file name without `.md`, never a path). */
export const AGENT_NAME = /^[A-Za-z0-9_-]+$/;

const CLAUDE_TOOLS: Record<string, string> = {
  Read: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  Bash: "shell",
  Grep: "grep",
  Glob: "glob",
  LS: "list",
  AskUserQuestion: "question",
  TodoWrite: "todo",
  BashOutput: "shell_output",
  KillShell: "shell_kill",
  KillBash: "shell_kill",
  WebFetch: "webfetch",
  WebSearch: "websearch",
};

/** Claude Code's model aliases: not a "provider/model" bosun could use. */
const CLAUDE_ALIASES = new Set(["sonnet", "opus", "haiku", "opusplan", "default"]);

/** A value bosun's schema takes for this agent key, or why not. */
function checked(key: string, value: unknown): { ok: true } | { ok: false; why: string } {
  const schema = (AgentEntrySchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>)[key];
  if (!schema) return { ok: false, why: "not a bosun setting" };
  return schema.safeParse(value).success ? { ok: true } : { ok: false, why: `not a valid ${key}` };
}

class Mapping {
  readonly out: MappedAgent = { entry: {}, from: new Map(), skipped: [] };
  set(key: string, value: unknown, from: SourcePath): void {
    const ok = checked(key, value);
    if (!ok.ok) {
      this.skip(String(from[0]), `${ok.why}, left out`);
      return;
    }
    this.out.entry[key] = value;
    this.out.from.set(key, from);
  }
  skip(key: string, why: string): void {
    this.out.skipped.push(`${key}: ${why}`);
  }
}

/** A comma-separated string (Claude Code's way) or a list of names. */
function toolNames(value: unknown): string[] | undefined {
  if (typeof value === "string") {
    return value
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
  }
  if (Array.isArray(value) && value.every((name) => typeof name === "string")) return value.map((n) => n.trim());
  return undefined;
}

/** A Claude Code agent file (`.claude/agents/*.md`). */
export function mapClaude(data: Record<string, unknown>): MappedAgent {
  const map = new Mapping();
  const lists: { tools?: string[]; disallowedTools?: string[] } = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === "name") {
      if (typeof value === "string" && AGENT_NAME.test(value)) map.out.name = value;
      else map.skip(key, "not a valid agent name (letters, digits, - and _), the file's name is used");
    } else if (key === "description") map.set("description", value, [key]);
    else if (key === "tools" || key === "disallowedTools") {
      const names = toolNames(value);
      if (names === undefined) map.skip(key, "not a list of tool names, left out");
      else if (names.length === 0 && key === "tools") map.skip(key, "empty: every tool, as Claude Code reads it");
      else {
        const unknown = names.filter((name) => !CLAUDE_TOOLS[name] && !name.startsWith("mcp__"));
        if (unknown.length > 0) map.skip(key, `${unknown.join(", ")}: no bosun tool of that name, kept as written`);
        lists[key] = names.map((name) => CLAUDE_TOOLS[name] ?? name);
      }
    } else if (key === "model") claudeModel(map, value);
    else if (key === "permissionMode") {
      if (value === "plan") map.set("read_only", true, [key]);
      else if (value !== "default") {
        map.skip(key, `${String(value)} is not read from another tool's file (it could only loosen)`);
      }
    } else map.skip(key, "not a bosun setting, ignored");
  }
  claudeTools(map, lists);
  return map.out;
}

/**
 * `tools` is the list the agent may use (default: all); `disallowedTools` takes tools out of it.
 * One MCP tool cannot be taken out of "every MCP tool" by name, so a disallowed MCP tool becomes a
 * deny rule for it (`mcp: {"server/tool": "deny"}`).
 */
function claudeTools(map: Mapping, lists: { tools?: string[]; disallowedTools?: string[] }): void {
  const denied = new Set(lists.disallowedTools ?? []);
  // apply_patch is edit in another format: an agent kept from edit is kept from it too.
  if (denied.has("edit")) denied.add("apply_patch");
  if (lists.tools === undefined && denied.size === 0) return;
  const tools = [...new Set(lists.tools ?? BOSUN_TOOLS)].filter((name) => !denied.has(name));
  map.set("tools", tools, lists.tools !== undefined ? ["tools"] : ["disallowedTools"]);
  const mcp = [...denied].flatMap((name) => {
    const parts = /^mcp__([^_]+(?:_[^_]+)*)__(.+)$/.exec(name);
    return parts && lists.tools === undefined ? [[`${parts[1]}/${parts[2]}`, "deny"] as const] : [];
  });
  if (mcp.length > 0) {
    map.out.entry.permission = { mcp: Object.fromEntries(mcp) };
    map.out.from.set("permission", ["disallowedTools"]);
    map.out.from.set("permission.mcp", ["disallowedTools"]);
  }
}

function claudeModel(map: Mapping, value: unknown): void {
  if (value === "inherit") return;
  if (typeof value === "string" && value.includes("/")) map.set("model", value, ["model"]);
  else if (typeof value === "string" && CLAUDE_ALIASES.has(value)) {
    map.skip("model", `${value} is a Claude Code alias, not provider/model: the parent's model is used`);
  } else map.skip("model", `${JSON.stringify(value)} is not provider/model: the parent's model is used`);
}

const OPENCODE_TOOLS: Record<string, string[]> = {
  // Without bash there are no jobs to read or stop.
  bash: ["shell", "shell_output", "shell_kill"],
  // apply_patch is edit in another format: turning edits off turns it off too.
  edit: ["edit", "apply_patch"],
  write: ["write"],
  patch: ["edit", "apply_patch"],
  multiedit: ["edit", "apply_patch"],
  read: ["read"],
  grep: ["grep"],
  glob: ["glob"],
  list: ["list"],
  skill: ["skill"],
  task: ["task"],
  question: ["question"],
  todowrite: ["todo"],
  todoread: ["todo"],
  webfetch: ["webfetch"],
  websearch: ["websearch"],
  "*": BOSUN_TOOLS,
};

/** opencode's permission keys that have a bosun action. */
const OPENCODE_ACTIONS: Record<string, readonly Action[]> = {
  read: ["read"],
  edit: ["edit"],
  bash: ["shell"],
  external_directory: ["external_directory"],
  task: ["delegate"],
  skill: ["skill"],
  question: ["question"],
  webfetch: ["web"],
  "*": ACTIONS,
};

/** An opencode agent file (`.opencode/agent/*.md`, `.opencode/agents/*.md`). */
export function mapOpencode(data: Record<string, unknown>): MappedAgent | { disabled: true } {
  if (data.disable === true) return { disabled: true };
  const map = new Mapping();
  for (const [key, value] of Object.entries(data)) {
    if (key === "description") map.set("description", value, [key]);
    else if (key === "model") {
      if (typeof value === "string" && value.includes("/")) map.set("model", value, [key]);
      else map.skip(key, `${JSON.stringify(value)} is not provider/model: the parent's model is used`);
    } else if (key === "mode") {
      map.skip(
        key,
        `${String(value)} is opencode's agent kind (primary, subagent, all), not a permission mode: ignored`,
      );
    } else if (key === "maxSteps" || key === "steps") map.set("max_steps", value, [key]);
    else if (key === "tools") opencodeTools(map, value);
    else if (key === "permission") opencodePermission(map, value);
    else if (key !== "disable") map.skip(key, "not a bosun setting, ignored");
  }
  return map.out;
}

/** `tools: {write: false, bash: false}`: the allowed subset of bosun's tools. */
function opencodeTools(map: Mapping, value: unknown): void {
  if (!isMapping(value)) {
    map.skip("tools", "not a map of tool → true/false, left out");
    return;
  }
  const enabled = new Set(BOSUN_TOOLS);
  for (const [name, on] of Object.entries(value)) {
    const tools = OPENCODE_TOOLS[name];
    if (typeof on !== "boolean") map.skip(`tools.${name}`, "not true or false, left out");
    else if (!tools) map.skip(`tools.${name}`, "no bosun tool of that name, ignored");
    else for (const tool of tools) on ? enabled.add(tool) : enabled.delete(tool);
  }
  if (enabled.size < BOSUN_TOOLS.length) map.set("tools", [...enabled], ["tools"]);
}

type Effect = "allow" | "ask" | "deny";
const isEffect = (value: unknown): value is Effect => value === "allow" || value === "ask" || value === "deny";
const PATH_ACTIONS = new Set<Action>(["read", "edit", "external_directory"]);

/**
 * `permission: {edit: "deny", bash: {"git *": "allow"}, "*": "ask"}` (or one effect for all) as
 * bosun rules. Both read the last matching rule as the one that decides, in the order written, so
 * each action's patterns keep that order; patterns bosun refuses in its own config (see
 * permission/rules/rules.ts: empty, a bare number, a `..` path) are left out and listed — a
 * foreign file is never fatal — and patterns a later catch-all silences are dropped (they never
 * decided in opencode either).
 */
function opencodePermission(map: Mapping, value: unknown): void {
  const entries = isEffect(value) ? [["*", value] as const] : isMapping(value) ? Object.entries(value) : undefined;
  if (!entries) {
    map.skip("permission", "not an effect or a map of permission → effect, left out");
    return;
  }
  const rules = new Map<Action, Array<{ pattern: string; effect: Effect; from: string }>>();
  for (const [key, entry] of entries) {
    const actions = OPENCODE_ACTIONS[key];
    if (!actions) {
      map.skip(`permission.${key}`, "no bosun action of that name, ignored");
      continue;
    }
    const patterns = isEffect(entry)
      ? [["*", entry] as const]
      : isMapping(entry) && key !== "webfetch"
        ? Object.entries(entry)
        : undefined;
    if (!patterns) {
      const why = key === "webfetch" ? "URL patterns do not map to bosun's host rules" : "not an effect or patterns";
      map.skip(`permission.${key}`, `${why}, left out`);
      continue;
    }
    for (const action of actions) {
      for (const [pattern, effect] of patterns) {
        const problem = !isEffect(effect)
          ? "not allow, ask or deny"
          : pattern.trim() === "" || /^(0|[1-9]\d*)$/.test(pattern)
            ? "a pattern bosun cannot keep in order"
            : PATH_ACTIONS.has(action) && pattern.split("/").includes("..")
              ? "a .. path, which never matches"
              : undefined;
        if (problem) map.skip(`permission.${key}.${pattern}`, `${problem}, left out`);
        else rules.set(action, [...(rules.get(action) ?? []), { pattern, effect: effect as Effect, from: key }]);
      }
    }
  }
  const permission: Record<string, unknown> = {};
  for (const [action, list] of rules) {
    const all = list.map((rule) => rule.pattern === "*" || (PATH_ACTIONS.has(action) && rule.pattern === "**"));
    const kept = list.slice(Math.max(0, all.lastIndexOf(true)));
    const last = kept.at(-1) as { effect: Effect; from: string };
    permission[action] =
      kept.length === 1 && kept[0]?.pattern === "*"
        ? last.effect
        : Object.fromEntries(kept.map((rule) => [rule.pattern, rule.effect]));
    map.out.from.set(`permission.${action}`, ["permission", (kept[0] as { from: string }).from]);
  }
  if (Object.keys(permission).length > 0) {
    map.out.entry.permission = permission;
    if (!map.out.from.has("permission")) map.out.from.set("permission", ["permission"]);
  }
}
