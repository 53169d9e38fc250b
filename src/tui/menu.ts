import type { CustomCommand } from "../input/custom-commands.js";
import { BUILTIN_COMMANDS, isBuiltin } from "../input/slash.js";

/** One line of the slash-command menu. */
export interface MenuEntry {
  name: string;
  description: string;
}

/** The commands the menu offers: the built-ins in /help's order, then the custom commands a built-in does not hide. */
export function menuEntries(customs: readonly CustomCommand[]): MenuEntry[] {
  return [
    ...BUILTIN_COMMANDS.map(({ name, description }) => ({ name, description })),
    ...customs
      .filter((command) => !isBuiltin(command.name))
      .map((command) => ({
        name: command.name,
        description: command.description ?? firstLine(command.template),
      })),
  ];
}

/**
 * What the menu filters by: the name being typed after a `/` that is the input's first
 * character, while nothing but the name has been typed (no space yet). Undefined: no menu.
 */
export function menuQuery(value: string): string | undefined {
  const match = /^\/([^\s]*)$/.exec(value);
  return match ? (match[1] as string) : undefined;
}

/**
 * The entries for `query`: the exact name first, then the names that start with it, then those
 * that contain it elsewhere, each group in the menu's own order. Case does not matter.
 */
export function filterMenu(entries: readonly MenuEntry[], query: string): MenuEntry[] {
  const q = query.toLowerCase();
  const rank = (entry: MenuEntry) => {
    const name = entry.name.toLowerCase();
    if (name === q) return 0;
    if (name.startsWith(q)) return 1;
    return name.includes(q) ? 2 : 3;
  };
  return entries
    .map((entry, index) => ({ entry, index, rank: rank(entry) }))
    .filter((e) => e.rank < 3)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((e) => e.entry);
}

function firstLine(text: string): string {
  const line = (text.split("\n").find((l) => l.trim() !== "") ?? "").trim();
  return line.length <= 60 ? line : `${line.slice(0, 59)}…`;
}
