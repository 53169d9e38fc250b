import { SessionStore } from "../../store/session-store.js";

/** Opens the session store for one command and always closes it, error or not. */
export function withStore<T>(fn: (store: SessionStore) => T): T {
  const store = SessionStore.open();
  try {
    return fn(store);
  } finally {
    store.close();
  }
}
