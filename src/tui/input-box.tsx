import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import {
  backspace,
  completeAt,
  cursorParts,
  deleteToStart,
  deleteWord,
  type Editor,
  EMPTY_EDITOR,
  insert,
  move,
  PASTE_COLLAPSE_CHARS,
  textOf,
  walkHistory,
} from "./editor.js";

/**
 * The input editor: Enter sends, a line ending in `\` (or Alt-Enter) continues on the next line;
 * ←/→ move the cursor, Ctrl-A/Ctrl-E (or Home/End) go to the start or end of the line, Ctrl-W
 * deletes a word and Ctrl-U the line before the cursor; ↑/↓ walk the history (↓ past the newest
 * brings back what was being written); a large paste shows as `[pasted #n: N lines]` while its
 * text is kept (Backspace removes it whole); Tab completes an `@path` before the cursor.
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
  const editor = useRef<Editor>(EMPTY_EDITOR);
  const [shown, setShown] = useState<Editor>(EMPTY_EDITOR);
  const set = (next: Editor) => {
    editor.current = next;
    setShown(next);
  };

  const send = () => {
    const current = editor.current;
    if (current.value.endsWith("\\") && current.cursor === current.value.length) {
      set(insert(backspace(current), "\n"));
      return;
    }
    const text = textOf(current);
    if (text.trim() === "") {
      if (current.value === "") onEmptyEnter?.();
      return;
    }
    set(EMPTY_EDITOR);
    onSubmit(text);
  };

  useInput(
    (input, key) => {
      const current = editor.current;
      if (key.return) {
        if (key.meta) set(insert(current, "\n"));
        else send();
        return;
      }
      if (key.upArrow || key.downArrow) return set(walkHistory(current, history, key.upArrow ? "older" : "newer"));
      if (key.leftArrow || key.rightArrow) return set(move(current, key.leftArrow ? "left" : "right"));
      if (key.home || (key.ctrl && input === "a")) return set(move(current, "start"));
      if (key.end || (key.ctrl && input === "e")) return set(move(current, "end"));
      if (key.ctrl && input === "w") return set(deleteWord(current));
      if (key.ctrl && input === "u") return set(deleteToStart(current));
      if (key.backspace || key.delete) return set(backspace(current));
      if (key.tab) {
        const completed = key.shift || !complete ? undefined : completeAt(current, complete);
        if (completed) set(completed);
        else onTab?.(key.shift);
        return;
      }
      if (key.ctrl || key.meta || key.escape) return;
      // Typed text and its Enter can arrive in one chunk (a fast terminal, tmux send-keys).
      if (input.length > 1 && input.endsWith("\r") && !input.slice(0, -1).includes("\r")) {
        set(insert(current, input.slice(0, -1)));
        send();
        return;
      }
      set(insert(current, input.length > PASTE_COLLAPSE_CHARS ? input : input.replace(/\r/g, "\n")));
    },
    { isActive: !disabled },
  );

  const { before, under, after } = cursorParts(shown);
  return (
    <Box flexDirection="column">
      <Box borderStyle="single" borderColor={disabled ? "gray" : "blue"} paddingX={1}>
        <Text color="blue">› </Text>
        {shown.value === "" ? (
          <>
            {disabled ? null : <Text inverse> </Text>}
            <Text dimColor>{placeholder}</Text>
          </>
        ) : (
          <Text>
            {before}
            {disabled ? under : <Text inverse>{under === "" || under === "\n" ? " " : under}</Text>}
            {under === "\n" ? "\n" : ""}
            {after}
          </Text>
        )}
      </Box>
      {shown.candidates.length > 0 ? <Text dimColor>{shown.candidates.join("  ")}</Text> : null}
    </Box>
  );
}
