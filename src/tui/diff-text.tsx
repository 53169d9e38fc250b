import { Box, Text } from "ink";

export { isDiff } from "./events.js";

/**
 * Text that may hold a unified diff: added lines green, removed lines red, hunk headers cyan;
 * everything else as it is. `dim` for the rest (a call's output).
 */
export function DiffText({ text, dim = false }: { text: string; dim?: boolean }) {
  return (
    <Box flexDirection="column">
      {text.split("\n").map((line, i) => {
        const color = /^\+(?!\+\+ )/.test(line)
          ? "green"
          : /^-(?!-- )/.test(line)
            ? "red"
            : line.startsWith("@@")
              ? "cyan"
              : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of one text never reorder
          <Text key={i} {...(color ? { color } : { dimColor: dim })}>
            {line === "" ? " " : line}
          </Text>
        );
      })}
    </Box>
  );
}
