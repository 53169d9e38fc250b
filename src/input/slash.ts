import type { Decision, Reason } from "../contracts/decisions.js";
import { type CustomCommand, type CustomCommandSet, commandPath, type Expansion } from "./custom-commands.js";

/**
 * What a line typed at the prompt is (seat `input.command`): a built-in slash command, a custom
 * one, a shell command to run (`!cmd`), or text for the model.
 */

/** The built-in slash commands, in the order /help lists them, each with its one-line description. */
export const BUILTIN_COMMANDS = [
  { name: "help", description: "list the commands" },
  { name: "model", description: "show or switch the model" },
  { name: "agent", description: "show or switch the agent" },
  { name: "mode", description: "show or switch the permission mode" },
  { name: "new", description: "start a new session" },
  { name: "sessions", description: "list recent sessions" },
  { name: "resume", description: "resume a session" },
  { name: "init", description: "ask the agent to write or update AGENTS.md from the repository" },
  { name: "review", description: "review the changes: the configured checks, then a read-only reviewer" },
  { name: "recipe", description: "run a recipe: its name, then its parameters as name=value; alone, list them" },
  { name: "goal", description: "keep each turn going until a command exits 0; /goal shows it, /goal off clears it" },
  { name: "compact", description: "summarise the conversation so far to free context" },
  { name: "undo", description: "undo the last turn: its file changes and its messages" },
  { name: "redo", description: "re-apply what the last /undo took back" },
  { name: "rewind", description: "pick one of your messages and undo back to before it" },
  { name: "why", description: "show the decisions of this session and who made them" },
  { name: "cost", description: "show the tokens and cost of this session" },
  { name: "jobs", description: "list this run's background jobs and how they stand" },
  { name: "mcp", description: "show the MCP servers and their tools; /mcp reconnect <name> starts one again" },
  { name: "exit", description: "quit" },
] as const;

export type BuiltinName = (typeof BUILTIN_COMMANDS)[number]["name"];

/** The interactive session's keys, as /help lists them. */
const KEYS: ReadonlyArray<readonly [string, string]> = [
  ["Esc", "stop what runs (a turn, a !cmd, a command's spans)"],
  ["/", "as the first character: the command menu (↑/↓, Tab completes, Enter runs, Esc closes)"],
  ["Ctrl-O", "open the calls: diffs, output, errors"],
  ["Tab", "complete an @path; else make the marked waiting message wait for the end, or steer"],
  ["Shift-Tab", "mark another waiting message"],
  ["Ctrl-X", "drop the marked waiting message"],
  ["↑ / ↓", "walk what you typed before"],
  ["\\ Enter", "continue on the next line (or Alt-Enter)"],
  ["Ctrl-C", "clear the input; on an empty one quit (while the agent works: interrupt, and quit if pressed again)"],
];

const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTIN_COMMANDS.map((command) => command.name));

export function isBuiltin(name: string): name is BuiltinName {
  return BUILTIN_NAMES.has(name);
}

export type ParsedInput =
  | { kind: "builtin"; name: BuiltinName; args: string }
  | { kind: "custom"; command: CustomCommand; args: string }
  | { kind: "bang"; command: string }
  | { kind: "text"; text: string; note?: string };

/** `/name`, then whitespace or the end; the name as in custom-commands' COMMAND_NAME. */
const SLASH = /^\/([A-Za-z0-9_:-]{1,64})(?:\s+([\s\S]*))?$/;

/**
 * Parses one input line (leading whitespace ignored for the test, kept in text):
 * - `/name args`: a built-in command if one has that name (it wins over a custom one), else a
 *   custom command, else text with a note saying it is not a command;
 * - `!cmd`: a shell command (the rest, trimmed); `!` alone is text;
 * - anything else (a path like `/etc/hosts` too) is text.
 */
export function parseInput(line: string, customs: readonly CustomCommand[]): ParsedInput {
  const start = line.trimStart();
  if (start.startsWith("!")) {
    const command = start.slice(1).trim();
    return command === "" ? { kind: "text", text: line } : { kind: "bang", command };
  }
  const match = SLASH.exec(start.trimEnd());
  if (!match) return { kind: "text", text: line };
  const name = match[1] as string;
  const args = (match[2] ?? "").trim();
  if (isBuiltin(name)) return { kind: "builtin", name, args };
  const custom = customs.find((command) => command.name === name);
  if (custom) return { kind: "custom", command: custom, args };
  return { kind: "text", text: line, note: `/${name} is not a command (see /help); sent to the model as text` };
}

/** The custom commands that a built-in of the same name hides. */
export function customsShadowedByBuiltin(customs: readonly CustomCommand[]): CustomCommand[] {
  return customs.filter((command) => isBuiltin(command.name));
}

/**
 * The /help text: the built-ins with their descriptions, then the custom commands with theirs (a
 * custom command without a description shows its template's first line), then the custom
 * commands that a built-in shadows, and (when given) those a project command shadows and the
 * command files left out, with why.
 */
export function helpText(
  customs: readonly CustomCommand[],
  shadowedByBuiltin: readonly CustomCommand[] = customsShadowedByBuiltin(customs),
  shadowedByProject: CustomCommandSet["shadowed"] = [],
  skipped: CustomCommandSet["skipped"] = [],
): string {
  const hidden = new Set(shadowedByBuiltin);
  const offered = customs.filter((command) => !hidden.has(command) && !isBuiltin(command.name));
  const width = Math.max(...BUILTIN_COMMANDS.map((c) => c.name.length), ...offered.map((c) => c.name.length)) + 2;
  const row = (name: string, description: string) => `  /${name.padEnd(width)}${description}`.trimEnd();
  const lines = ["Commands:", ...BUILTIN_COMMANDS.map((command) => row(command.name, command.description))];
  lines.push(`${"  !<command>".padEnd(width + 3)}run a shell command; its output goes to the model`);
  lines.push("", "Keys:", ...KEYS.map(([key, what]) => `  ${key.padEnd(width + 1)}${what}`));
  if (offered.length > 0) {
    lines.push("", "Custom commands:");
    for (const command of offered) {
      lines.push(row(command.name, `${describeCustom(command)} (${commandPath(command)})`));
      for (const { key, reason } of command.ignored ?? [])
        lines.push(`${" ".repeat(width + 3)}ignores ${key}: ${reason}`);
    }
  }
  if (shadowedByBuiltin.length > 0 || shadowedByProject.length > 0) {
    lines.push("", "Shadowed:");
    for (const command of shadowedByBuiltin) {
      lines.push(`  /${command.name} (custom, ${commandPath(command)}) is shadowed by the built-in`);
    }
    for (const { command, by } of shadowedByProject) {
      lines.push(`  /${command.name} (custom, ${commandPath(command)}) is shadowed by ${commandPath(by)}`);
    }
  }
  if (skipped.length > 0) {
    lines.push("", "Not loaded:");
    for (const { file, reason } of skipped) lines.push(`  ${file}: ${reason}`);
  }
  return lines.join("\n");
}

export function describeCustom(command: CustomCommand): string {
  if (command.description) return command.description;
  const first = command.template.split("\n").find((line) => line.trim() !== "") ?? "";
  const text = first.trim();
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}

export type InputAnswer =
  | { kind: "builtin"; name: BuiltinName }
  | { kind: "custom"; name: string; file: string }
  | { kind: "bang"; command: string }
  | { kind: "text"; command: string };

export interface InputDecisionContext {
  /** All custom commands found (to name a custom command a built-in shadows). */
  customs?: readonly CustomCommand[];
  /** Commands a project command shadows (discovery's `shadowed`). */
  shadowed?: CustomCommandSet["shadowed"];
  /** The custom command's expansion (to record the spans it ran). */
  expansion?: Expansion;
}

/**
 * The `input.command` decision for a parsed line: by the person for a built-in, a custom command
 * or a `!cmd` (the person typed it); by code when a `/word` or `!` that is not a command went to
 * the model as text. Undefined for plain text (there was nothing to decide). For a `!cmd`, record
 * this before it runs or `bangDecision` (which has the exit code) after, not both.
 */
export function inputDecision(
  parsed: ParsedInput,
  context: InputDecisionContext = {},
): Decision<InputAnswer> | undefined {
  const seat = "input.command";
  switch (parsed.kind) {
    case "builtin": {
      const reasons: Reason[] = [{ rule: "built-in command", detail: `/${parsed.name}`, decisive: true }];
      for (const custom of context.customs ?? []) {
        if (custom.name !== parsed.name) continue;
        reasons.push({
          rule: "shadows a custom command",
          detail: `the built-in /${parsed.name} wins over ${commandPath(custom)}`,
          source: custom.file,
        });
      }
      return { seat, holder: "person", answer: { kind: "builtin", name: parsed.name }, reasons };
    }
    case "custom": {
      const { command } = parsed;
      const reasons: Reason[] = [
        {
          rule: "custom command",
          detail: `/${command.name} (${command.scope})`,
          source: command.file,
          decisive: true,
        },
      ];
      for (const { command: hidden, by } of context.shadowed ?? []) {
        if (by !== command && !(by.name === command.name && by.file === command.file)) continue;
        reasons.push({
          rule: "shadows a custom command",
          detail: `${commandPath(command)} wins over ${commandPath(hidden)}`,
          source: hidden.file,
        });
      }
      // What the file asked for and did not get is said, so a Claude `allowed-tools` is seen to grant nothing.
      for (const { key, reason } of command.ignored ?? []) {
        reasons.push({ rule: "front matter key ignored", detail: `${key}: ${reason}`, source: command.file });
      }
      for (const span of context.expansion?.ran ?? []) {
        reasons.push({
          rule: "ran a span of the template",
          detail: `!\`${span.command}\` ${span.exitCode === null ? "did not exit normally" : `exited ${span.exitCode}`}`,
          source: command.file,
        });
      }
      return { seat, holder: "person", answer: { kind: "custom", name: command.name, file: command.file }, reasons };
    }
    case "bang":
      return {
        seat,
        holder: "person",
        answer: { kind: "bang", command: parsed.command },
        reasons: [{ rule: "shell command typed by the person", detail: `!${parsed.command}`, decisive: true }],
      };
    case "text": {
      const start = parsed.text.trimStart();
      if (parsed.note === undefined && !start.startsWith("/") && !start.startsWith("!")) return undefined;
      const word = start.split(/\s/, 1)[0] ?? start;
      const detail =
        parsed.note ??
        (word === "!" ? "! alone is not a shell command; sent as text" : `${word} is not a command name; sent as text`);
      return {
        seat,
        holder: "code",
        answer: { kind: "text", command: word },
        reasons: [{ rule: "not a command", detail, decisive: true }],
      };
    }
  }
}
