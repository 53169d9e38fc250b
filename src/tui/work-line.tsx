import { Text } from "ink";
import { useEffect, useState } from "react";
import type { WaitClock } from "./use-wait.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** How often the spinner turns; the seconds shown come from the clock, so a slow redraw never miscounts. */
const FRAME_MS = 200;

const compact = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n));

/**
 * The line while the agent works: a spinner, the seconds since it started, the tokens its
 * requests have used so far, and — while a model request has shown nothing yet — how long that
 * one has waited (a silent provider shows).
 */
export function workingText(frame: number, elapsedMs: number, tokens: number, wait?: string): string {
  const spin = FRAMES[frame % FRAMES.length];
  const seconds = Math.max(0, Math.floor(elapsedMs / 1000));
  return `${spin} working · ${seconds} s · ${compact(tokens)} tokens · ${wait ?? "Esc interrupts"}`;
}

export function WorkLine({
  since,
  clock,
  tokens,
  wait,
}: {
  /** When the work started (the clock's time). */
  since: number;
  clock: WaitClock;
  /** The tokens used since the work started. */
  tokens: () => number;
  /** The model wait's own text (use-wait.ts), while a request has shown nothing. */
  wait?: string;
}) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => f + 1), Math.min(FRAME_MS, clock.everyMs));
    return () => clearInterval(timer);
  }, [clock]);
  return <Text color="yellow">{workingText(frame, clock.now() - since, tokens(), wait)}</Text>;
}
