import { useRef, useState } from "react";
import type { InteractiveRunner } from "./runner.js";
import type { TranscriptState } from "./use-transcript.js";
import { REAL_CLOCK, type WaitClock } from "./use-wait.js";

/**
 * What runs now — a turn, a !cmd, a command's spans, /compact, a switch: only one thing at a
 * time, with Esc able to stop it. Refs, not only state: a key can arrive before React re-renders
 * with the last answer. `busyRef`: something runs. `inTurn`: a turn runs, so a typed message can
 * steer it.
 */
export function useWork(
  runner: InteractiveRunner,
  transcript: TranscriptState,
  setWaiting: (waiting: boolean) => void,
  waitClock: WaitClock | undefined,
) {
  const [busy, setBusy] = useState(false);
  // When the running work started, and the session's tokens then: the spinner counts from there.
  const [started, setStarted] = useState<{ at: number; tokens: number }>();
  const controller = useRef<AbortController | undefined>(undefined);
  const busyRef = useRef(false);
  const inTurn = useRef(false);

  /** Runs one piece of work with Esc able to stop it; true when it was stopped (Esc, Ctrl-C). */
  const run = async (job: (signal: AbortSignal) => Promise<void>): Promise<boolean> => {
    busyRef.current = true;
    setBusy(true);
    setStarted({ at: (waitClock ?? REAL_CLOCK).now(), tokens: runner.tokens?.() ?? 0 });
    const stop = new AbortController();
    controller.current = stop;
    try {
      await job(stop.signal);
    } catch (error) {
      transcript.add({ kind: "notice", text: `error: ${(error as Error).message}` });
    } finally {
      busyRef.current = false;
      inTurn.current = false;
      setBusy(false);
      setWaiting(false);
      transcript.settle();
    }
    return stop.signal.aborted;
  };

  return { busy, started, controller, busyRef, inTurn, run };
}

export type WorkState = ReturnType<typeof useWork>;
