import { useRef, useState } from "react";
import type { PendingMessage } from "../input/steer.js";

/**
 * The messages typed while the agent works, in order, with one of them marked (the newest,
 * until Shift-Tab moves the mark): Tab makes the marked one wait for the end instead of
 * steering (or steer again), Ctrl-X drops it. Kept in a ref as well as state: keys and the
 * loop's step boundary can come before React re-renders.
 */
export function usePending() {
  const list = useRef<PendingMessage[]>([]);
  const markRef = useRef(0);
  const [shown, setShown] = useState<{ messages: PendingMessage[]; mark: number }>({ messages: [], mark: 0 });
  const set = (next: PendingMessage[], mark = next.length - 1) => {
    list.current = next;
    markRef.current = Math.max(0, Math.min(mark, next.length - 1));
    setShown({ messages: next, mark: markRef.current });
  };
  return {
    messages: shown.messages,
    mark: shown.mark,
    get count() {
      return list.current.length;
    },
    /** Every message waiting now (the ref, not the last render's state). */
    all(): readonly PendingMessage[] {
      return list.current;
    },
    add(message: PendingMessage) {
      set([...list.current, message]);
    },
    /** Shift-Tab: the mark moves to the message before (from the first, back to the newest). */
    moveMark() {
      const count = list.current.length;
      if (count > 0) set(list.current, (markRef.current - 1 + count) % count);
    },
    /** Tab: the marked message waits for the end instead of steering, or steers again (the person's choice). */
    toggle() {
      const at = markRef.current;
      const message = list.current[at];
      if (!message || message.kind === "command") return;
      set(
        list.current.map((m, i) => (i === at ? { ...m, how: m.how === "queue" ? "steer" : "queue", chosen: true } : m)),
        at,
      );
    },
    /** Ctrl-X: the marked message is dropped; returned so the drop can be recorded. */
    drop(): PendingMessage | undefined {
      const at = markRef.current;
      const message = list.current[at];
      if (message)
        set(
          list.current.filter((_, i) => i !== at),
          at,
        );
      return message;
    },
    /** At a step boundary: the steering messages, gone from the list. */
    takeSteering(): PendingMessage[] {
      const steer = list.current.filter((m) => m.how === "steer");
      if (steer.length > 0) set(list.current.filter((m) => m.how !== "steer"));
      return steer;
    },
    /** When the work ends: the first message waiting, gone from the list. */
    takeNext(): PendingMessage | undefined {
      const [next, ...rest] = list.current;
      if (next) set(rest, markRef.current - 1);
      return next;
    },
  };
}
