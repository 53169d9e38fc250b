/**
 * How many delegates of one session tree run at once (config delegate.max_parallel): one pool
 * for the whole tree, so a delegate's own delegates wait in the same line as their siblings.
 * A wait is bounded by the caller's signal: a cancelled turn stops waiting at once.
 */
export interface DelegatePool {
  readonly max: number;
  running(): number;
  /** A slot, once one is free; `onWait` is told first when the caller must wait. Rejects when `signal` aborts. */
  acquire(signal: AbortSignal, onWait: (running: number) => void): Promise<() => void>;
}

export function delegatePool(max: number): DelegatePool {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  const slot = () => {
    running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  return {
    max,
    running: () => running,
    acquire(signal, onWait) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (running < max) return Promise.resolve(slot());
      onWait(running);
      return new Promise((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener("abort", abort);
          resolve(slot());
        };
        const abort = () => {
          const at = waiting.indexOf(wake);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal.reason);
        };
        waiting.push(wake);
        signal.addEventListener("abort", abort, { once: true });
      });
    },
  };
}

/**
 * A session's background delegates: what runs, and the notices of those that finished, taken by
 * the parent's next step. The parent's turn does not end while one runs (seat turn.done waits).
 */
export interface BackgroundTasks {
  running(): number;
  start(id: string, work: Promise<string>): void;
  /** The notices of tasks finished since last asked, oldest first. */
  takeFinished(): string[];
  /** Resolves when a running task finishes (at once when none runs), or when `signal` aborts. */
  next(signal: AbortSignal): Promise<void>;
}

export function backgroundTasks(): BackgroundTasks {
  const running = new Map<string, Promise<void>>();
  let finished: string[] = [];
  return {
    running: () => running.size,
    start(id, work) {
      const settled = work
        .catch((error: unknown) => `Background task ${id} failed: ${error instanceof Error ? error.message : error}`)
        .then((notice) => {
          finished.push(notice);
          running.delete(id);
        });
      running.set(id, settled);
    },
    takeFinished() {
      const out = finished;
      finished = [];
      return out;
    },
    next(signal) {
      if (running.size === 0 || signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          signal.removeEventListener("abort", done);
          resolve();
        };
        signal.addEventListener("abort", done, { once: true });
        void Promise.race(running.values()).then(done);
      });
    },
  };
}
