import { useInput } from "ink";
import { useCallback, useRef } from "react";
import { CTRL_C_WARNING, ctrlC } from "./ctrl-c.js";
import { splitLeadingControls } from "./editor.js";
import type { InteractiveRunner } from "./runner.js";
import type { usePending } from "./use-pending.js";
import type { TranscriptState } from "./use-transcript.js";
import type { WorkState } from "./use-work.js";

/**
 * The app's own keys: Esc interrupts the work (unless the command menu is open: Esc closes it),
 * Ctrl-O opens calls' details, Ctrl-X drops the marked waiting message, Ctrl-C quits or
 * interrupts; Tab and Enter on an empty line act on the waiting messages. With a dialog open
 * only Ctrl-C is the app's.
 */
export function useKeys(deps: {
  runner: InteractiveRunner;
  work: WorkState;
  pending: ReturnType<typeof usePending>;
  transcript: TranscriptState;
  dialogOpen: boolean;
  exit: () => void;
  sendNext: (byPerson: boolean) => Promise<void>;
}) {
  const { runner, pending, dialogOpen } = deps;
  const { busyRef, controller } = deps.work;
  const lastCtrlC = useRef<number | undefined>(undefined);
  const menuOpen = useRef(false);
  const onMenu = useCallback((open: boolean) => {
    menuOpen.current = open;
  }, []);

  /** Ctrl-C with nothing written (the input clears a draft itself): quit, or interrupt and warn. */
  const onCtrlC = () => {
    const now = Date.now();
    const answer = ctrlC({ busy: busyRef.current, now, ...(lastCtrlC.current ? { last: lastCtrlC.current } : {}) });
    lastCtrlC.current = now;
    if (answer === "quit") {
      controller.current?.abort(new Error("the person quit (Ctrl-C)"));
      deps.exit();
      return;
    }
    controller.current?.abort(new Error("interrupted by the person (Ctrl-C)"));
    deps.transcript.add({ kind: "notice", text: CTRL_C_WARNING });
  };

  useInput((input, key) => {
    // With a dialog open the input takes no keys, so nothing is written: Ctrl-C is the app's.
    if (key.ctrl && input === "c") {
      if (dialogOpen) onCtrlC();
      return;
    }
    if (dialogOpen) return;
    if (key.escape && busyRef.current && !menuOpen.current)
      controller.current?.abort(new Error("interrupted by the person (Esc)"));
    // A Ctrl key can come in one chunk with the text typed after it: it still acts.
    for (const letter of key.ctrl ? [input] : key.meta ? [] : splitLeadingControls(input).keys) {
      if (letter === "o") deps.transcript.toggleDetails(busyRef.current);
      else if (letter === "x" && pending.count > 0) {
        const dropped = pending.drop();
        if (dropped) void runner.noteSteer?.(dropped, "drop");
      }
    }
  });
  /** Tab (when no `@path` is being completed) toggles the marked waiting message; Shift-Tab moves the mark. */
  const onTab = (shift: boolean) => (shift ? pending.moveMark() : pending.toggle());
  /** Enter on an empty line, idle, with messages waiting (after an Esc): the next one goes. */
  const onEmptyEnter = () => {
    if (!busyRef.current && pending.count > 0) void deps.sendNext(true);
  };
  return { onCtrlC, onTab, onEmptyEnter, onMenu };
}
