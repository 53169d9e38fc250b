import type { OpenOptions } from "../../store/database.js";
import { SessionStore } from "../../store/session-store.js";

/**
 * Opens the session store for one command and always closes it, error or not. Reading commands
 * pass `readonly`: they then work on a home bosun may not write (database.ts).
 */
export function withStore<T>(fn: (store: SessionStore) => T, options: OpenOptions = {}): T {
  const store = SessionStore.open(undefined, undefined, options);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** For commands that only read (list, show, why, export): see `withStore`. */
export const READ_ONLY: OpenOptions = { readonly: true };
