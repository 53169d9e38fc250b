import { lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { describeArguments, type McpPrompt } from "../mcp/prompts.js";
import { readChecked } from "../permission/gate/checked-read.js";
import { isInside } from "../permission/rules/requests.js";
import { isMapping, parseFrontMatter, splitFrontMatter } from "../util/front-matter.js";
import {
  type CommandConvention,
  commandNameOf,
  commandRoots,
  frontMatterKeys,
  listCommandFiles,
} from "./command-conventions.js";

export { commandRoots } from "./command-conventions.js";

/**
 * Custom slash commands (seat `input.command`): markdown files in `<workspace>/.bosun/commands/`,
 * the other agents' project folders (`.claude/commands/**`, `.opencode/command(s)/`, see
 * command-conventions.ts) and `<globalDir>/commands/` (global). `/name args` expands the file's body, a
 * template, and sends the result to the model as the person's message. A template holds text,
 * `$ARGUMENTS`/`$1…` and `` !`cmd` `` spans (run as shell calls, judged like any); no file
 * includes. A project's command file is the repository's: its text becomes your message when you
 * type its name, so it must be the file it seems — a regular file in the workspace with no other
 * name. A link (to `.env`, out of the workspace) or a hard link is skipped with why: these are
 * found before the run's rules exist, and a file the repository brings is never read on a rule's
 * say-so alone (permission/gate/read-check.ts).
 */

/** One MCP prompt as a command: the server's, asked when it is run. */
export function mcpPromptCommand(prompt: McpPrompt): CustomCommand {
  return {
    name: prompt.command,
    description: `${prompt.description ?? `a prompt of MCP server ${prompt.server}`} (${describeArguments(prompt)})`,
    template: "",
    file: `MCP server ${prompt.server}`,
    scope: "global",
    mcp: prompt,
  };
}

export interface CustomCommand {
  /** The file name without `.md` (`a:b` for `.claude/commands/a/b.md`). */
  name: string;
  description?: string;
  /** The agent the expanded message goes to (front matter `agent:`). */
  agent?: string;
  /** The model for that message (front matter `model:`). */
  model?: string;
  /** The body after the front matter. */
  template: string;
  /** The markdown file (absolute); for an MCP prompt, the server it comes from. */
  file: string;
  scope: "project" | "global";
  /** An MCP server's prompt: expanded by asking its server, never as a template. */
  mcp?: McpPrompt;
  /** How the file is shown: relative for a project's (`.claude/commands/a/b.md`). */
  shown?: string;
  /** Front matter keys not read, with why (Claude's `allowed-tools` never grants anything). */
  ignored?: Array<{ key: string; reason: string }>;
}

export interface CustomCommandSet {
  /** The commands offered, project ones first, each scope by name. */
  commands: CustomCommand[];
  /** Commands with the same name as one found earlier (a project one), which wins. */
  shadowed: Array<{ command: CustomCommand; by: CustomCommand }>;
  /** Files (or unreadable folders) left out, and why. */
  skipped: Array<{ file: string; reason: string }>;
}

/** A command's name: letters, digits, `-`, `_`, `:`; 1 to 64 characters. */
export const COMMAND_NAME = /^[A-Za-z0-9_:-]{1,64}$/;
/** A command file larger than this is skipped. */
export const COMMAND_MAX_BYTES = 256 * 1024;
/**
 * Every `*.md` file in the command folders (see `commandRoots`; `.claude/commands` with its
 * subfolders). The first folder wins a name, each later one is listed as shadowed; a file with a
 * bad name or a broken front matter is skipped with its reason. Never throws for what it finds on disk.
 */
export function discoverCustomCommands(options: { workspace: string; globalDir: string }): CustomCommandSet {
  const set: CustomCommandSet = { commands: [], shadowed: [], skipped: [] };
  const byName = new Map<string, CustomCommand>();
  // The same folder reached twice (the global dir is the workspace's .bosun) is searched once.
  const searched = new Set<string>();
  let workspace: string | undefined;
  try {
    workspace = realpathSync(options.workspace);
  } catch {
    workspace = undefined;
  }
  for (const { root, scope, convention, nested, shown } of commandRoots(options)) {
    let listed: ReturnType<typeof listCommandFiles>;
    let real: string;
    try {
      real = realpathSync(root);
      if (searched.has(real)) continue;
      searched.add(real);
      listed = listCommandFiles(root, nested);
    } catch (error) {
      const code = errorCode(error);
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        set.skipped.push({ file: root, reason: `the commands folder cannot be read: ${describe(error)}` });
      }
      continue;
    }
    for (const folder of listed.unreadable) {
      set.skipped.push({ file: join(root, folder), reason: "the folder cannot be read" });
    }
    for (const relative of listed.files) {
      const file = join(root, relative);
      const name = commandNameOf(relative);
      if (!COMMAND_NAME.test(name)) {
        set.skipped.push({
          file,
          reason: `invalid command name ${JSON.stringify(name)}: use 1-64 letters, digits, "-", "_" or ":"`,
        });
        continue;
      }
      const loaded =
        scope === "project"
          ? loadProjectCommandFile(join(real, relative), workspace, convention)
          : loadCommandFile(file);
      if (!loaded.ok) {
        set.skipped.push({ file, reason: loaded.reason });
        continue;
      }
      const command: CustomCommand = {
        name,
        ...loaded.fields,
        template: loaded.template,
        file,
        scope,
        shown: scope === "project" ? `${shown}/${relative}` : file,
        ...(loaded.ignored.length > 0 ? { ignored: loaded.ignored } : {}),
      };
      const winner = byName.get(name);
      if (winner) {
        set.shadowed.push({ command, by: winner });
        continue;
      }
      byName.set(name, command);
      set.commands.push(command);
    }
  }
  return set;
}

export type CommandFile =
  | {
      ok: true;
      fields: Pick<CustomCommand, "description" | "agent" | "model">;
      template: string;
      /** Front matter keys not read, with why. */
      ignored: Array<{ key: string; reason: string }>;
    }
  | { ok: false; reason: string };

/** Reads and checks one command file. */
export function loadCommandFile(file: string): CommandFile {
  let text: string;
  try {
    const info = statSync(file);
    if (!info.isFile()) return { ok: false, reason: "not a regular file" };
    if (info.size > COMMAND_MAX_BYTES) {
      return { ok: false, reason: `the file is ${info.size} bytes, over the limit of ${COMMAND_MAX_BYTES} (256 KiB)` };
    }
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { ok: false, reason: `the file cannot be read: ${describe(error)}` };
  }
  return parseCommand(text);
}

/** A project's command file: only a regular file with one name whose real folder lies in the workspace. */
function loadProjectCommandFile(
  file: string,
  workspace: string | undefined,
  convention: CommandConvention,
): CommandFile {
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(file);
  } catch (error) {
    return { ok: false, reason: `the file cannot be read: ${describe(error)}` };
  }
  if (info.isSymbolicLink())
    return { ok: false, reason: "a link: a repository's command file must be the file itself" };
  if (!info.isFile()) return { ok: false, reason: "not a regular file" };
  if (info.nlink > 1)
    return { ok: false, reason: "it has other names (hard links): it may be another file, such as .env" };
  if (!workspace || !isInside(file, workspace)) return { ok: false, reason: `outside the workspace (${file})` };
  const read = readChecked({ real: file, identity: { dev: info.dev, ino: info.ino } }, COMMAND_MAX_BYTES);
  if ("tooBig" in read) {
    return { ok: false, reason: `the file is ${read.tooBig} bytes, over the limit of ${COMMAND_MAX_BYTES} (256 KiB)` };
  }
  if ("refused" in read) return { ok: false, reason: `the file cannot be read: ${read.refused}` };
  return parseCommand(read.text, convention);
}

/**
 * Splits and checks a command file's text: optional front matter between `---` lines at the top,
 * then the template. The convention says which keys are read (command-conventions.ts).
 */
export function parseCommand(text: string, convention: CommandConvention = "bosun"): CommandFile {
  const parts = splitFrontMatter(text);
  if (!parts.ok) return parts;
  const fields: Pick<CustomCommand, "description" | "agent" | "model"> = {};
  let ignored: Array<{ key: string; reason: string }> = [];
  if (parts.present) {
    const parsed = parseFrontMatter(parts.frontMatter);
    if (!parsed.ok) return parsed;
    const data = parsed.data;
    // An empty front matter (`---` twice) parses to null: no fields.
    if (data !== null && data !== undefined) {
      if (!isMapping(data)) {
        return { ok: false, reason: "front matter is not a YAML mapping (expected description:, agent:, model:)" };
      }
      const record = data;
      const keys = frontMatterKeys(convention, Object.keys(record));
      ignored = keys.ignored;
      for (const key of keys.read) {
        const value = record[key];
        if (value === undefined || value === null) continue;
        if (typeof value !== "string" || value.trim() === "") {
          return { ok: false, reason: `invalid ${key}: it must be a non-empty string` };
        }
        fields[key] = key === "description" ? oneLine(value) : value.trim();
      }
    }
  }
  const template = parts.body;
  if (template.trim() === "") return { ok: false, reason: "the template (the text after the front matter) is empty" };
  return { ok: true, fields, template, ignored };
}

/** How a command's file is shown: relative for the project's (`.bosun/commands/x.md`), absolute for the global one. */
export function commandPath(command: Pick<CustomCommand, "file" | "scope" | "shown">): string {
  if (command.shown !== undefined) return command.shown;
  return command.scope === "project" ? `.bosun/commands/${basename(command.file)}` : command.file;
}

// ---- Expansion ---------------------------------------------------------------------------------

/** Runs one `` !`cmd` `` span of a template. */
export type SpanRunner = (command: string) => Promise<{ output: string; exitCode: number | null }>;

export interface Expansion {
  /** The message for the model. */
  text: string;
  /** The template's spans, in the order they ran. */
  ran: Array<{ command: string; exitCode: number | null }>;
}

/** A `` !`cmd` `` span: a `!`, then a command between single backticks. */
const SPAN = /!`([^`]+)`/g;
/** `$ARGUMENTS` or `$1`, `$2`, ... (`$0` is not a placeholder). */
const PLACEHOLDER = /\$(?:(ARGUMENTS)\b|([1-9][0-9]*))/g;

/**
 * Expands a custom command's template for the arguments `args`:
 * 1. each `` !`cmd` `` span written in the template itself runs through `runSpan`, in order, and
 *    is replaced by its output (a failing command's output notes its exit code);
 * 2. only then `$ARGUMENTS` becomes the whole argument string and `$1..$n` the nth argument (split
 *    like a shell splits quoted words; a missing one is empty) — in the template's own text only.
 *
 * The template is split into literal text and spans once, and each piece is expanded once: an
 * argument holding `` !`...` `` is never run, and a span's output holding `$1` or `` !`...` `` is
 * never expanded again. A placeholder inside a span is not substituted either (the span runs as
 * written): putting the person's arguments into a shell command would let them inject commands.
 * A template without placeholders gets non-empty arguments appended after a blank line.
 */
export async function expandTemplate(template: string, args: string, runSpan: SpanRunner): Promise<Expansion> {
  const pieces: Array<{ literal: string } | { command: string; source: string }> = [];
  let at = 0;
  for (const match of template.matchAll(SPAN)) {
    const command = (match[1] ?? "").trim();
    if (command === "") continue; // !` ` runs nothing; it stays text
    pieces.push({ literal: template.slice(at, match.index) });
    pieces.push({ command, source: match[0] });
    at = match.index + match[0].length;
  }
  pieces.push({ literal: template.slice(at) });

  // (a) The spans, in order, each before the next starts.
  const ran: Expansion["ran"] = [];
  const outputs: string[] = [];
  for (const piece of pieces) {
    if (!("command" in piece)) continue;
    let result: { output: string; exitCode: number | null };
    try {
      result = await runSpan(piece.command);
    } catch (error) {
      result = { output: `(the command could not run: ${describe(error)})`, exitCode: null };
    }
    ran.push({ command: piece.command, exitCode: result.exitCode });
    outputs.push(spanText(result));
  }

  // (b) The arguments, into the template's literal text only.
  const trimmedArgs = args.trim();
  const words = splitArguments(trimmedArgs);
  let placeholders = 0;
  let output = 0;
  const text = pieces
    .map((piece) => {
      if ("command" in piece) return outputs[output++] ?? "";
      return piece.literal.replace(PLACEHOLDER, (_match, all: string | undefined, index: string | undefined) => {
        placeholders++;
        return all ? trimmedArgs : (words[Number(index) - 1] ?? "");
      });
    })
    .join("");
  if (placeholders === 0 && trimmedArgs !== "") {
    return { text: text.trim() === "" ? trimmedArgs : `${text}\n\n${trimmedArgs}`, ran };
  }
  return { text, ran };
}

/** A span's replacement: its output without the trailing newline; a failure notes its exit code. */
function spanText(result: { output: string; exitCode: number | null }): string {
  const output = result.output.replace(/(\r?\n)+$/, "");
  if (result.exitCode === 0) return output;
  const note = result.exitCode === null ? "(the command did not exit normally)" : `(exit code ${result.exitCode})`;
  return output === "" ? note : `${output}\n${note}`;
}

/**
 * Splits an argument string into words the way a shell splits them (without expanding anything):
 * whitespace separates, `"..."` and `'...'` group, a backslash escapes the next character outside
 * single quotes. `""` is an empty word; an unclosed quote runs to the end.
 */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < args.length; i++) {
    const char = args[i] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"' && (args[i + 1] === '"' || args[i + 1] === "\\")) word += args[++i];
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === "\\" && i + 1 < args.length) {
      word += args[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

// ---- Helpers -----------------------------------------------------------------------------------

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
