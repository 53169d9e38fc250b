import { useEffect, useRef, useState } from "react";
import type { PersonBridge } from "./person-bridge.js";
import type { InteractiveRunner } from "./runner.js";
import type { DialogState } from "./use-dialogs.js";
import type { usePending } from "./use-pending.js";
import type { TranscriptState } from "./use-transcript.js";

/**
 * The session opening behind the prompt: whether it has opened (or found it cannot, for want of a
 * model) — the header waits for its model —, its past drawn once it has, and its questions and
 * warnings put to the app's dialogs and transcript meanwhile.
 */
export function useSessionOpening(
  runner: InteractiveRunner,
  person: PersonBridge | undefined,
  transcript: TranscriptState,
  dialogs: DialogState,
  exit: (error?: Error) => void,
): boolean {
  const [opened, setOpened] = useState(runner.ready === undefined);
  const { add, showPast, redraw } = transcript;
  const { ask, askTrust, askQuestion } = dialogs;
  // The prompt is drawn before the session has opened; the status line fills in when it has.
  useEffect(() => {
    // A session that cannot open ends the app; bosun then prints why, once, below it.
    runner.ready?.then(
      () => {
        setOpened(true);
        showPast();
        // No model: the session stays open and says what to set up.
        const setup = runner.setup?.();
        if (setup) add({ kind: "notice", text: setup });
        redraw();
      },
      (error: Error) => exit(error),
    );
  }, [runner, exit, add, showPast, redraw]);
  useEffect(() => {
    person?.attach({ ask, askTrust, askQuestion, notice: (text) => add({ kind: "notice", text }) });
  }, [person, add, ask, askTrust, askQuestion]);
  return opened;
}

/** What still waits when the session ends (/exit, Ctrl-C) is recorded as never delivered. */
export function useDropWaitingAtEnd(runner: InteractiveRunner, pending: ReturnType<typeof usePending>): void {
  const waitingAtEnd = useRef(pending);
  waitingAtEnd.current = pending;
  useEffect(
    () => () => {
      for (const message of waitingAtEnd.current.all()) void runner.noteSteer?.(message, "drop", "exit");
    },
    [runner],
  );
}

/** The launch's own lines go once the session is open; each waits for the one before, as typed lines do. */
export function useOpeningLines(
  runner: InteractiveRunner,
  opening: readonly string[] | undefined,
  submit: (line: string) => Promise<void>,
): void {
  const submitRef = useRef(submit);
  submitRef.current = submit;
  useEffect(() => {
    if (!opening || opening.length === 0) return;
    let gone = false;
    (runner.ready ?? Promise.resolve()).then(
      () => {
        for (const line of opening) if (!gone) void submitRef.current(line);
      },
      () => {},
    );
    return () => {
      gone = true;
    };
  }, [runner, opening]);
}
