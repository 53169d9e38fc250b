import { useCallback, useEffect, useState } from "react";

/** The status while a model request is outstanding: the seconds waited so far, so a silent provider shows. */
export function waitingActivity(since: number, now: number): string {
  return `waiting for the model · ${Math.max(0, Math.floor((now - since) / 1000))} s (Esc interrupts)`;
}

/** The clock of that display; tests pass their own so none waits for real. */
export interface WaitClock {
  now(): number;
  /** How often the seconds are redrawn. */
  everyMs: number;
}

export const REAL_CLOCK: WaitClock = { now: Date.now, everyMs: 1000 };

/**
 * Whether a model request is outstanding, and since when; redrawn every `everyMs` meanwhile.
 * `activity` is the status text while waiting, undefined otherwise.
 */
export function useModelWait(clock: WaitClock = REAL_CLOCK): {
  activity: string | undefined;
  set: (waiting: boolean) => void;
} {
  const [since, setSince] = useState<number | undefined>(undefined);
  const [, setTick] = useState(0);
  const set = useCallback((waiting: boolean) => setSince(waiting ? clock.now() : undefined), [clock]);
  useEffect(() => {
    if (since === undefined) return;
    const timer = setInterval(() => setTick((t) => t + 1), clock.everyMs);
    return () => clearInterval(timer);
  }, [since, clock]);
  return { activity: since === undefined ? undefined : waitingActivity(since, clock.now()), set };
}
