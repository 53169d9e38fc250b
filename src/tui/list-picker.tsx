import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import type { Choice } from "./runner.js";

/**
 * A picker for /model, /agent and /mode: the choices, the one in use marked "(now)". ↑/↓ move,
 * Enter takes the one marked, Esc keeps what is in use. It opens on the one in use.
 */
export function ListPicker({
  title,
  choices,
  onPick,
}: {
  title: string;
  choices: readonly Choice[];
  /** The chosen value, or undefined when the person left with Esc. */
  onPick: (value: string | undefined) => void;
}) {
  // A ref as well as state: several keys can arrive before React re-renders.
  const at = useRef(
    Math.max(
      0,
      choices.findIndex((c) => c.current),
    ),
  );
  const [marked, setMarked] = useState(at.current);
  useInput((_input, key) => {
    if (key.escape) onPick(undefined);
    else if (key.return) onPick(choices[at.current]?.value);
    else if (key.upArrow || key.downArrow) {
      at.current = Math.max(0, Math.min(choices.length - 1, at.current + (key.upArrow ? -1 : 1)));
      setMarked(at.current);
    }
  });
  const width = Math.max(...choices.map((c) => c.value.length)) + 2;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{title} (↑/↓, Enter; Esc keeps the one in use)</Text>
      {choices.map((c, i) => (
        <Text key={c.value} {...(i === marked ? { color: "cyan" } : {})}>
          {i === marked ? "›" : " "} {c.value.padEnd(width)}
          <Text dimColor>
            {c.detail ?? ""}
            {c.current ? " (now)" : ""}
          </Text>
        </Text>
      ))}
    </Box>
  );
}
