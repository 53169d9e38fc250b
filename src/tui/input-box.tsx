import { Box, Text, useInput } from "ink";
import { useEffect, useRef, useState } from "react";
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
  printable,
  splitLeadingControls,
  textOf,
  walkHistory,
} from "./editor.js";
import { filterMenu, type MenuEntry, menuQuery } from "./menu.js";
import { SlashMenu } from "./slash-menu.js";

/**
 * The input editor: Enter sends, a line ending in `\` (or Alt-Enter) continues on the next line;
 * ←/→ move the cursor, Ctrl-A/Ctrl-E (or Home/End) go to the start or end of the line, Ctrl-W
 * deletes a word and Ctrl-U the line before the cursor; ↑/↓ walk the history (↓ past the newest
 * brings back what was being written); a large paste shows as `[pasted #n: N lines]` while its
 * text is kept (Backspace removes it whole); Tab completes an `@path` before the cursor.
 * A `/` typed as the first character opens the command menu (slash-menu.tsx): while it is open
 * ↑/↓ move in it instead of the history, Tab completes the marked name, Enter runs it, Esc
 * closes it. Ctrl-C clears what is written; on an empty input it is the app's (`onCtrlC`).
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
  menu,
  onMenu,
  onCtrlC,
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
  /** The commands the `/` menu offers; no menu without them. */
  menu?: readonly MenuEntry[];
  /** Whether the menu is open now (Esc closes it then, and is nothing else's). */
  onMenu?: (open: boolean) => void;
  /** Ctrl-C with nothing written. */
  onCtrlC?: () => void;
}) {
  const editor = useRef<Editor>(EMPTY_EDITOR);
  const [shown, setShown] = useState<Editor>(EMPTY_EDITOR);
  // The menu's marked line, and whether Esc closed it (until the input no longer starts with `/`).
  const marked = useRef(0);
  const [mark, setMark] = useState(0);
  const closed = useRef(false);
  const [, setClosedShown] = useState(false);
  const set = (next: Editor) => {
    if (next.value !== editor.current.value) {
      marked.current = 0;
      setMark(0);
      if (!next.value.startsWith("/")) {
        closed.current = false;
        setClosedShown(false);
      }
    }
    editor.current = next;
    setShown(next);
  };
  /** The menu's lines for what is written; none when it is closed. A line walked to in the history opens no menu. */
  const menuFor = (current: Editor): MenuEntry[] => {
    if (!menu || closed.current || current.back > 0) return [];
    const query = menuQuery(current.value);
    return query === undefined ? [] : filterMenu(menu, query);
  };
  const open = menuFor(shown).length > 0;
  useEffect(() => onMenu?.(open), [open, onMenu]);

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
      if (key.ctrl && input === "c") {
        if (current.value !== "") set(EMPTY_EDITOR);
        else onCtrlC?.();
        return;
      }
      const entries = menuFor(current);
      // Ink reports Esc with meta set: it is checked before meta keys are left alone.
      if (entries.length > 0 && key.escape) {
        closed.current = true;
        setClosedShown(true);
        return;
      }
      if (entries.length > 0 && !key.meta) {
        const chosen = entries[Math.min(marked.current, entries.length - 1)] as MenuEntry;
        if (key.upArrow || key.downArrow) {
          marked.current = (marked.current + (key.upArrow ? entries.length - 1 : 1)) % entries.length;
          setMark(marked.current);
          return;
        }
        if (key.tab && !key.shift) return set(insert(EMPTY_EDITOR, `/${chosen.name} `));
        if (key.return) {
          // Exactly a command's name runs as typed; else the marked command runs.
          if (!entries.some((e) => `/${e.name}` === current.value)) set(insert(EMPTY_EDITOR, `/${chosen.name}`));
          send();
          return;
        }
      }
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
      // Leading Ctrl keys in a chunk are the app's (use-keys.ts); the editor keeps only text.
      const rest = splitLeadingControls(input).rest;
      if (rest === "") return;
      // Typed text and its Enter can arrive in one chunk (a fast terminal, tmux send-keys).
      if (rest.length > 1 && rest.endsWith("\r") && !rest.slice(0, -1).includes("\r")) {
        set(insert(current, printable(rest.slice(0, -1))));
        send();
        return;
      }
      set(insert(current, printable(rest.replace(/\r\n?/g, "\n"))));
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
      {open ? <SlashMenu entries={menuFor(shown)} marked={mark} /> : null}
    </Box>
  );
}
