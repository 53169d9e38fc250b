import { useCallback, useRef, useState } from "react";
import type { RunEvent } from "../loop/turn.js";
import { applyEvent, finishedPrefix, lastTurnCalls } from "./events.js";
import { pastSeparator } from "./past.js";
import type { InteractiveRunner } from "./runner.js";
import type { TranscriptItem } from "./transcript.js";

/**
 * The transcript: its items, how many of them are final, and whether calls show their details
 * (Ctrl-O). What is final is drawn once above the live part (Ink's Static) and never redrawn, so
 * a long turn does not redraw its past on every word.
 */
export function useTranscript(runner: InteractiveRunner, setWaiting: (waiting: boolean) => void) {
  const [items, setItems] = useState<TranscriptItem[]>([]);
  // Items before this index are final: drawn once above the live part (Ink's Static), never redrawn.
  const [settled, setSettled] = useState(0);
  const [expanded, setExpanded] = useState(false);
  const expandedRef = useRef(false);
  // A redraw with nothing new in the transcript: the status line reads the runner afresh.
  const [, setTick] = useState(0);
  const redraw = useCallback(() => setTick((t) => t + 1), []);

  /** Everything shown so far becomes final: at the end of a piece of work. */
  const settle = useCallback(
    () =>
      setItems((list) => {
        setSettled(list.length);
        return list;
      }),
    [],
  );
  const add = useCallback((item: TranscriptItem) => setItems((list) => [...list, item]), []);
  /** A resumed session's conversation so far, then a line saying so: drawn once, above what follows. */
  const showPast = useCallback(() => {
    const past = runner.takePast?.();
    if (!past) return;
    setItems((list) => {
      const next = [...list, ...past.items, pastSeparator(past)];
      setSettled((settled) => Math.max(settled, finishedPrefix(next)));
      return next;
    });
  }, [runner]);
  const onEvent = useCallback(
    (event: RunEvent) => {
      if (event.type === "model_wait") return setWaiting(event.waiting);
      setItems((list) => {
        const next = applyEvent(list, event);
        // What is final is drawn once, above: a long turn does not redraw its past on every word.
        const done = finishedPrefix(next);
        setSettled((settled) => Math.max(settled, done));
        return next;
      });
      redraw();
    },
    [setWaiting, redraw],
  );

  /**
   * Ctrl-O: calls show their details (diff, output) or go back to one line. Finished lines are
   * drawn once and stay as they were, so the last turn's finished calls are shown again below,
   * opened; a call still running opens in place. `busy`: whether something runs now.
   */
  const toggleDetails = (busy: boolean) => {
    const open = !expandedRef.current;
    expandedRef.current = open;
    setExpanded(open);
    if (!open) return;
    setItems((list) => {
      const calls = lastTurnCalls(list).filter((call) => (call.detail || call.delegate) && call.status !== "running");
      if (calls.length === 0) return list;
      const next: TranscriptItem[] = [
        ...list,
        { kind: "notice", text: "the last turn's calls, opened (Ctrl-O closes):" },
        ...calls.map((call) => ({ ...call, open: true })),
      ];
      // During a turn only what is final is drawn for good: a running call or streaming text stays live.
      setSettled((n) => Math.max(n, busy ? finishedPrefix(next) : next.length));
      return next;
    });
  };

  return { items, settled, expanded, add, settle, showPast, onEvent, toggleDetails, redraw };
}

export type TranscriptState = ReturnType<typeof useTranscript>;
