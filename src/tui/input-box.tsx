import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { commonStart } from "../input/complete-path.js";

/** Pasted text longer than this is shown collapsed (the whole text is still sent). */
export const PASTE_COLLAPSE_CHARS = 200;

interface Editor {
  value: string;
  pastes: string[];
  /** How far back in the history ↑ went; 0 is the line being written. */
  back: number;
  /** The `@path` candidates Tab found when more than one matched. */
  candidates: string[];
}

/**
 * The input editor: Enter sends, a line ending in `\` (or Alt-Enter) continues on the next line,
 * ↑/↓ walk the history, a large paste shows as `[pasted #n: N lines]` while its text is kept,
 * and Tab completes an `@path` being typed (listing the candidates when several match).
 * The text lives in a ref, not only in state: keys can arrive faster than React re-renders
 * (a paste, a fast terminal), and each must see what the one before it typed.
 */
export function InputBox({
  history,
  onSubmit,
  disabled = false,
  placeholder = "Ask bosun… (/help for commands, !cmd runs a shell command, @path attaches a file)",
  complete,
  onTab,
  onEmptyEnter,
}: {
  history: readonly string[];
  onSubmit: (text: string) => void;
  disabled?: boolean;
  placeholder?: string;
  /** The paths an `@partial` may complete to. */
  complete?: (partial: string) => string[];
  /** Tab when there is no `@path` to complete (`shift`: Shift-Tab). */
  onTab?: (shift: boolean) => void;
  /** Enter on an empty line. */
  onEmptyEnter?: () => void;
}) {
  const editor = useRef<Editor>({ value: "", pastes: [], back: 0, candidates: [] });
  const [shown, setShown] = useState<Pick<Editor, "value" | "candidates">>({ value: "", candidates: [] });
  const update = (change: Partial<Editor>) => {
    editor.current = { ...editor.current, candidates: [], ...change };
    setShown({ value: editor.current.value, candidates: editor.current.candidates });
  };

  /** Tab on a word starting with `@`: fills in the one match, or what all matches share. */
  const tab = (): boolean => {
    const { value } = editor.current;
    const word = /(?:^|\s)@(\S*)$/.exec(value);
    if (!word || !complete) return false;
    const partial = word[1] as string;
    const candidates = complete(partial);
    if (candidates.length === 0) return true;
    const filled = candidates.length === 1 ? (candidates[0] as string) : commonStart(candidates);
    const end = candidates.length === 1 && !filled.endsWith("/") ? " " : "";
    update({
      value: value.slice(0, value.length - partial.length) + filled + end,
      candidates: candidates.length > 1 ? candidates : [],
    });
    return true;
  };

  const send = () => {
    const { value, pastes } = editor.current;
    if (value.endsWith("\\")) {
      update({ value: `${value.slice(0, -1)}\n` });
      return;
    }
    // Pasted blocks go back in where their markers are.
    const text = value.replace(/\[pasted #(\d+): \d+ lines?\]/g, (marker, n) => pastes[Number(n)] ?? marker);
    if (text.trim() === "") {
      if (value === "") onEmptyEnter?.();
      return;
    }
    update({ value: "", pastes: [], back: 0 });
    onSubmit(text);
  };

  useInput(
    (input, key) => {
      const { value, pastes, back } = editor.current;
      if (key.return) {
        if (key.meta) update({ value: `${value}\n` });
        else send();
        return;
      }
      if (key.upArrow || key.downArrow) {
        const next = Math.max(0, Math.min(history.length, back + (key.upArrow ? 1 : -1)));
        update({ back: next, value: next === 0 ? "" : (history[history.length - next] ?? "") });
        return;
      }
      if (key.backspace || key.delete) {
        update({ value: value.slice(0, -1) });
        return;
      }
      if (key.tab) {
        if (key.shift || !tab()) onTab?.(key.shift);
        return;
      }
      if (key.ctrl || key.meta || key.escape) return;
      if (input.length > PASTE_COLLAPSE_CHARS) {
        const lines = input.split(/\r?\n|\r/).length;
        update({
          pastes: [...pastes, input],
          value: `${value}[pasted #${pastes.length}: ${lines} line${lines === 1 ? "" : "s"}]`,
        });
        return;
      }
      // Typed text and its Enter can arrive in one chunk (a fast terminal, tmux send-keys).
      if (input.length > 1 && input.endsWith("\r") && !input.slice(0, -1).includes("\r")) {
        update({ value: value + input.slice(0, -1) });
        send();
        return;
      }
      update({ value: value + input.replace(/\r/g, "\n") });
    },
    { isActive: !disabled },
  );

  return (
    <Box flexDirection="column">
      <Box borderStyle="single" borderColor={disabled ? "gray" : "blue"} paddingX={1}>
        <Text color="blue">› </Text>
        {shown.value === "" ? <Text dimColor>{placeholder}</Text> : <Text>{shown.value}</Text>}
        {disabled ? null : <Text inverse> </Text>}
      </Box>
      {shown.candidates.length > 0 ? <Text dimColor>{shown.candidates.join("  ")}</Text> : null}
    </Box>
  );
}
