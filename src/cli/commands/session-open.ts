import { sessionJson } from "../../session/json.js";
import { openSession } from "../../session/open.js";
import type { SessionInfo } from "../../store/session-store.js";
import { json, out } from "../output.js";
import { loadForCommand } from "./config.js";
import { withStore } from "./store.js";

/** `bosun sessions new` and `fork`: the only session commands that load config (and record decisions). */

export function newSession(options: { title?: string; json?: boolean }): void {
  const config = loadForCommand();
  withStore((store) => {
    const session = openSession(store, {
      directory: process.cwd(),
      flags: {},
      config,
      ...(options.title ? { title: options.title } : {}),
    });
    printOpened(session, options);
  });
}

export function forkSessionCommand(ref: string, options: { title?: string; json?: boolean }): void {
  const config = loadForCommand();
  withStore((store) => {
    const session = openSession(store, {
      directory: process.cwd(),
      flags: {
        session: ref,
        fork: true,
        said: { session: "bosun sessions fork <session>", fork: "bosun sessions fork" },
      },
      config,
      ...(options.title ? { title: options.title } : {}),
    });
    printOpened(session, options);
  });
}

function printOpened(session: SessionInfo, options: { json?: boolean }): void {
  if (options.json) json(sessionJson(session));
  else out(session.id);
}
