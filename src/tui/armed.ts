import { useEffect, useRef, useState } from "react";

/**
 * How long a dialog ignores keys after it opens. The prompt is drawn before the session has
 * opened, and a call can ask while the person types a steering message: without this, the next
 * letter typed for the input would answer the question ("a" — always) unseen.
 */
export const ARM_DELAY_MS = 400;

/** Whether the dialog takes keys yet: state to draw with, and a ref for key handlers (keys can outrun renders). */
export function useArmed(delayMs = ARM_DELAY_MS): { armed: boolean; ready: { current: boolean } } {
  const ready = useRef(delayMs <= 0);
  const [armed, setArmed] = useState(ready.current);
  useEffect(() => {
    if (ready.current) return;
    const timer = setTimeout(() => {
      ready.current = true;
      setArmed(true);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return { armed, ready };
}
