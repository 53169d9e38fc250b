import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import { isFolderEntry } from "../util/front-matter.js";

/**
 * The command folders other agents' users already have (Claude Code's `.claude/commands`,
 * opencode's `.opencode/command(s)`), read beside bosun's own so a person switching agents finds
 * their commands. Each convention has its own front matter; a key is mapped where bosun has the
 * concept and listed as ignored otherwise. Nothing a file says widens authority: Claude's
 * `allowed-tools` would pre-approve tools, and a repository's file is never a rule (seat
 * `project.trust`), so it is only listed.
 */

export type CommandConvention = "bosun" | "claude" | "opencode";

export interface CommandRoot {
  root: string;
  scope: "project" | "global";
  convention: CommandConvention;
  /** Subfolders are searched, `a/b.md` becoming `/a:b` (Claude Code's namespacing). */
  nested: boolean;
  /** How a file under this root is shown: `<shown>/<relative path>`; absolute for the global root. */
  shown: string;
}

/** The folders searched, first wins a name: bosun's project folder, the other agents', then the global one. */
export function commandRoots(options: { workspace: string; globalDir: string }): CommandRoot[] {
  const project = (shown: string, convention: CommandConvention, nested = false): CommandRoot => ({
    root: join(options.workspace, ...shown.split("/")),
    scope: "project",
    convention,
    nested,
    shown,
  });
  const global = join(options.globalDir, "commands");
  return [
    project(".bosun/commands", "bosun"),
    project(".claude/commands", "claude", true),
    project(".opencode/command", "opencode"),
    project(".opencode/commands", "opencode"),
    { root: global, scope: "global", convention: "bosun", nested: false, shown: global },
  ];
}

/** A front matter key bosun reads, and what it becomes. */
export type MappedKey = "description" | "agent" | "model";

/** Per convention: the keys mapped onto bosun's, and the known keys ignored with why. */
const KEYS: Record<CommandConvention, { mapped: readonly MappedKey[]; ignored: Record<string, string> }> = {
  bosun: { mapped: ["description", "agent", "model"], ignored: {} },
  claude: {
    mapped: ["description", "model"],
    ignored: {
      "argument-hint": "bosun has no argument hints; the description is shown",
      "allowed-tools": "a command file never grants tools: the session's rules decide every call",
      "disable-model-invocation": "bosun's model never invokes custom commands",
    },
  },
  opencode: {
    mapped: ["description", "agent", "model"],
    ignored: { subtask: "bosun runs a command's message in the session, not as a delegate" },
  },
};

/** Which of a front matter's keys are read, and which are ignored with why. Pure. */
export function frontMatterKeys(
  convention: CommandConvention,
  keys: readonly string[],
): { read: MappedKey[]; ignored: Array<{ key: string; reason: string }> } {
  const known = KEYS[convention];
  const read: MappedKey[] = [];
  const ignored: Array<{ key: string; reason: string }> = [];
  for (const key of keys) {
    if ((known.mapped as readonly string[]).includes(key)) read.push(key as MappedKey);
    else ignored.push({ key, reason: known.ignored[key] ?? `not a key bosun reads in a ${convention} command file` });
  }
  return { read, ignored };
}

/** Folders below a nested root searched at most this deep (`a/b/c.md`). */
export const NESTED_DEPTH = 3;

/**
 * The `*.md` files under a root, as paths relative to it (`a/b.md`), sorted. A nested root's
 * subfolders are entered only when they are real folders: a linked folder may lead out of the
 * workspace. `unreadable` lists subfolders that could not be read. Throws only for the root.
 */
export function listCommandFiles(root: string, nested: boolean): { files: string[]; unreadable: string[] } {
  const files: string[] = [];
  const unreadable: string[] = [];
  const walk = (relative: string, entries: Dirent[], depth: number) => {
    const folder = relative === "" ? root : join(root, relative);
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.name.endsWith(".md") && !isFolderEntry(folder, entry)) files.push(path);
      else if (nested && entry.isDirectory() && depth < NESTED_DEPTH) {
        try {
          walk(path, readdirSync(join(root, path), { withFileTypes: true }), depth + 1);
        } catch {
          unreadable.push(path);
        }
      }
    }
  };
  walk("", readdirSync(root, { withFileTypes: true }), 0);
  return { files: files.sort(compare), unreadable };
}

/** A command's name from its path under the root: `a/b.md` is `a:b`. */
export function commandNameOf(relative: string): string {
  return relative.slice(0, -".md".length).split("/").join(":");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
