import { Box, Text, useInput } from "ink";
import { useState } from "react";

/** Pasted text longer than this is shown collapsed (the whole text is still sent). */
export const PASTE_COLLAPSE_CHARS = 200;

/**
 * The input editor: Enter sends, a line ending in `\` (or Alt-Enter) continues on the next line,
 * ↑/↓ walk the history, a large paste shows as `[pasted N lines]` while its text is kept.
 */
export function InputBox({
  history,
  onSubmit,
  disabled = false,
  placeholder = "Ask bosun… (/help for commands, !cmd runs a shell command)",
}: {
  history: readonly string[];
  onSubmit: (text: string) => void;
  disabled?: boolean;
  placeholder?: string;
}) {
  const [value, setValue] = useState("");
  const [pastes, setPastes] = useState<string[]>([]);
  const [back, setBack] = useState(0);

  useInput(
    (input, key) => {
      if (key.return) {
        if (key.meta || value.endsWith("\\")) {
          setValue((v) => `${v.endsWith("\\") ? v.slice(0, -1) : v}\n`);
          return;
        }
        // Pasted blocks go back in where their markers are.
        const text = value.replace(/\[pasted #(\d+): \d+ lines?\]/g, (marker, n) => pastes[Number(n)] ?? marker);
        if (text.trim() === "") return;
        onSubmit(text);
        setValue("");
        setPastes([]);
        setBack(0);
        return;
      }
      if (key.upArrow || key.downArrow) {
        const next = Math.max(0, Math.min(history.length, back + (key.upArrow ? 1 : -1)));
        setBack(next);
        setValue(next === 0 ? "" : (history[history.length - next] ?? ""));
        return;
      }
      if (key.backspace || key.delete) {
        setValue((v) => v.slice(0, -1));
        return;
      }
      if (key.ctrl || key.meta || key.escape || key.tab) return;
      if (input.length > PASTE_COLLAPSE_CHARS) {
        const lines = input.split(/\r?\n/).length;
        setPastes((p) => [...p, input]);
        setValue((v) => `${v}[pasted #${pastes.length}: ${lines} line${lines === 1 ? "" : "s"}]`);
        return;
      }
      setValue((v) => v + input.replace(/\r/g, "\n"));
    },
    { isActive: !disabled },
  );

  return (
    <Box borderStyle="single" borderColor={disabled ? "gray" : "blue"} paddingX={1}>
      <Text color="blue">› </Text>
      {value === "" ? <Text dimColor>{placeholder}</Text> : <Text>{value}</Text>}
      {disabled ? null : <Text inverse> </Text>}
    </Box>
  );
}
