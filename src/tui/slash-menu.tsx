import { Box, Text } from "ink";
import type { MenuEntry } from "./menu.js";

/** How many lines of the menu show at once; the marked one is always among them. */
const SHOWN = 8;

/** The commands matching what is typed after `/`, under the input; the marked one is the one Tab or Enter takes. */
export function SlashMenu({ entries, marked }: { entries: readonly MenuEntry[]; marked: number }) {
  const at = Math.min(marked, entries.length - 1);
  const start = Math.max(0, Math.min(at - SHOWN + 1, entries.length - SHOWN));
  const width = Math.max(...entries.map((e) => e.name.length)) + 2;
  return (
    <Box flexDirection="column" paddingX={1}>
      {entries.slice(start, start + SHOWN).map((entry, i) => {
        const here = start + i === at;
        return (
          <Text key={entry.name} {...(here ? { color: "cyan" } : { dimColor: true })}>
            {here ? "› " : "  "}/{entry.name.padEnd(width)}
            {entry.description}
          </Text>
        );
      })}
      <Text dimColor>
        {entries.length > SHOWN ? `${entries.length} commands · ` : ""}↑/↓ move · Tab completes · Enter runs · Esc
        closes
      </Text>
    </Box>
  );
}
