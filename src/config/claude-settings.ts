import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseJsonc } from "./jsonc.js";

/*
 * Claude Code's project settings (`.claude/settings.json`, `.claude/settings.local.json`) as a
 * config layer: only their `hooks`, in Claude Code's format
 *   {"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}}
 * read into bosun's `hooks.<event>[]`. The layer is the project's, so each hook passes seat
 * project.command exactly like one in a repository's bosun.json: not run until judged allowed.
 * Everything else in the file (permissions, env, model…) is Claude Code's and not read.
 */

/** Claude Code's event names and bosun's. */
const EVENTS: Record<string, string> = {
  PreToolUse: "pre_tool",
  PostToolUse: "post_tool",
  Stop: "stop",
  SubagentStop: "subagent_stop",
  UserPromptSubmit: "user_prompt_submit",
  SessionStart: "session_start",
  Notification: "notification",
  PreCompact: "pre_compact",
};
/** Only a call's hooks take a matcher over tool names; another event's matcher is not a tool's. */
const TOOL_EVENTS = new Set(["pre_tool", "post_tool"]);
/** Claude Code's own default, in seconds, for a command hook that names no timeout. */
const CLAUDE_TIMEOUT_S = 60;

export const CLAUDE_SETTINGS_FILES = [join(".claude", "settings.json"), join(".claude", "settings.local.json")];

export interface ClaudeSettingsLayer {
  file: string;
  data: { hooks: Record<string, Array<Record<string, unknown>>> };
  lineOf: (path: readonly (string | number)[]) => number | undefined;
  /** What was not read, each with why (an event bosun has no hook for, a prompt hook…). */
  skipped: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A folder's Claude Code settings files as project layers, with what each left out. Run from the
 * home folder, `.claude/settings.json` is Claude Code's user settings, no project's: not read.
 * Project layers, so they are judged as a repository's (seat project.command), `filter` and all.
 */
export function claudeSettingsLayers(folder: string, home: string, filter?: (data: unknown) => unknown) {
  if (resolve(folder) === resolve(home)) return [];
  return CLAUDE_SETTINGS_FILES.flatMap((name) => {
    const read = readClaudeSettings(join(folder, name));
    if (!read) return [];
    const layer = "project" as const;
    return [
      {
        report: { layer, source: read.file, status: "read" as const, skipped: read.skipped },
        layer: {
          layer,
          source: read.file,
          file: read.file,
          data: filter ? filter(read.data) : read.data,
          lineOf: read.lineOf,
          baseDir: dirname(read.file),
        },
      },
    ];
  });
}

/** The hooks of one Claude Code settings file, as a bosun layer; undefined when the file is absent or has none. */
export function readClaudeSettings(file: string): ClaudeSettingsLayer | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: ReturnType<typeof parseJsonc>;
  try {
    parsed = parseJsonc(readFileSync(file, "utf8"), file);
  } catch (error) {
    // Claude Code's file, not bosun's: a broken one is not read, said so, and bosun starts.
    return { file, data: { hooks: {} }, lineOf: () => undefined, skipped: [`not read: ${(error as Error).message}`] };
  }
  return translateClaudeHooks(file, parsed.data, parsed.lineOf);
}

/** Pure: Claude Code's `hooks` object into bosun's, each hook's line kept. */
export function translateClaudeHooks(
  file: string,
  data: unknown,
  lineOf: (path: readonly (string | number)[]) => number | undefined,
): ClaudeSettingsLayer | undefined {
  if (!isObject(data) || data.hooks === undefined) return undefined;
  const skipped: string[] = [];
  const hooks: Record<string, Array<Record<string, unknown>>> = {};
  const lines = new Map<string, number | undefined>();
  if (!isObject(data.hooks))
    return { file, data: { hooks }, lineOf: () => undefined, skipped: ["hooks is not an object"] };
  for (const [claudeEvent, groups] of Object.entries(data.hooks)) {
    const event = EVENTS[claudeEvent];
    if (!event) {
      skipped.push(`hooks.${claudeEvent}: bosun has no such event`);
      continue;
    }
    if (!Array.isArray(groups)) {
      skipped.push(`hooks.${claudeEvent}: not a list`);
      continue;
    }
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        skipped.push(`hooks.${claudeEvent}[${g}]: no "hooks" list`);
        return;
      }
      const matcher = typeof group.matcher === "string" && group.matcher !== "" ? group.matcher : undefined;
      if (matcher && !TOOL_EVENTS.has(event))
        skipped.push(`hooks.${claudeEvent}[${g}].matcher: not read (runs always)`);
      group.hooks.forEach((hook: unknown, h: number) => {
        const where = `hooks.${claudeEvent}[${g}].hooks[${h}]`;
        if (!isObject(hook) || hook.type !== "command" || typeof hook.command !== "string" || hook.command === "") {
          skipped.push(`${where}: only {"type": "command", "command": "…"} hooks run in bosun`);
          return;
        }
        const seconds = typeof hook.timeout === "number" && hook.timeout > 0 ? hook.timeout : CLAUDE_TIMEOUT_S;
        hooks[event] ??= [];
        const list = hooks[event];
        lines.set(`${event}.${list.length}`, lineOf(["hooks", claudeEvent, g, "hooks", h]));
        list.push({
          command: hook.command,
          ...(matcher && TOOL_EVENTS.has(event) ? { tools: [matcher] } : {}),
          timeout_ms: Math.round(seconds * 1000),
        });
      });
    });
  }
  return {
    file,
    data: { hooks },
    // bosun's path `hooks.<event>[i]` names the line of the Claude Code entry it came from.
    lineOf: (path) => (path[0] === "hooks" && path.length >= 3 ? lines.get(`${path[1]}.${path[2]}`) : lineOf([])),
    skipped,
  };
}
