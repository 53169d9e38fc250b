import { Box, Text } from "ink";
import type { TodoItem } from "../contracts/todo.js";

/** Items the panel shows; the rest are counted. */
const SHOWN = 8;

/** The agent's plan above the input, live: one line an item, the one in progress marked. */
export function TodoPanel({ items }: { items: readonly TodoItem[] }) {
  const done = items.filter((i) => i.status === "done").length;
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text dimColor>
        plan · {done}/{items.length} done
      </Text>
      {items.slice(0, SHOWN).map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole; two items may read alike
        <Text key={`${i}:${item.content}`} {...(item.status === "done" ? { dimColor: true } : {})}>
          {item.status === "done" ? "✓" : item.status === "in_progress" ? "▸" : "·"}{" "}
          <Text {...(item.status === "in_progress" ? { bold: true } : {})}>{item.content}</Text>
        </Text>
      ))}
      {items.length > SHOWN ? <Text dimColor>… {items.length - SHOWN} more</Text> : null}
    </Box>
  );
}
