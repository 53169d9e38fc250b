import { readFileSync, realpathSync, statSync } from "node:fs";
import { resolve } from "node:path";
import {
  type AgentContext,
  type ContentBlock,
  RequestError,
  type SessionUpdate,
  type StopReason,
} from "@agentclientprotocol/sdk";
import { isInside } from "../permission/rules/requests.js";
import { workspaceOf } from "../util/repo.js";
import { editorPrompt } from "./asker.js";
import type { Held } from "./held.js";
import { messageOf } from "./prompt.js";
import { turnEnd } from "./stop-reason.js";
import { turnUpdates } from "./updates.js";

/** Largest file read for a write's "before" in its diff: beyond it the diff is left out. */
const BEFORE_MAX_BYTES = 512 * 1024;

/** What a prompt turn needs of the connection: the editor, whether it is gone, and the update queue. */
export interface TurnIo {
  client: AgentContext;
  gone: AbortSignal;
  send: (update: SessionUpdate) => void;
  /** Settles once every update sent so far is written: the answer must come after them. */
  flushed: () => Promise<unknown>;
}

/**
 * One session/prompt: a bosun turn of the held session, its events streamed as updates, its asks
 * put to the editor, its end the stop reason (turnEnd). One at a time, as at the terminal.
 */
export async function promptTurn(
  held: Held,
  prompt: readonly ContentBlock[],
  io: TurnIo,
): Promise<{ stopReason: StopReason }> {
  if (held.turn) throw RequestError.invalidRequest(undefined, "a turn is running in this session");
  const controller = new AbortController();
  // A write's "before", for its diff: the editor's buffer when it reads for bosun, read ahead of the update.
  const buffers = new Map<string, string | null | undefined>();
  const read = (path: string) => (buffers.has(path) ? buffers.get(path) : before(resolve(held.cwd, path)));
  const updates = turnUpdates(held.cwd, read);
  // The updates in the order of the events, each event's once what it shows is read.
  let sent: Promise<unknown> = Promise.resolve();
  const turn = held.runtime.turn(messageOf(prompt), {
    emit: (event) => {
      const path = event.type === "tool_call" && event.name === "write" ? pathOf(event.input) : undefined;
      sent = sent
        .then(async () => {
          if (path !== undefined && held.access?.read) buffers.set(path, await buffered(held, path, controller.signal));
          for (const update of updates.of(event)) io.send(update);
        })
        .catch(() => undefined);
    },
    signal: controller.signal,
    prompt: askEditor(held, io),
    // The thread's /goal, when one is set: the turn goes on until its command exits 0.
    ...(held.goal ? { goal: held.goal } : {}),
  });
  held.turn = { controller, done: turn };
  const flushed = async () => {
    await sent.catch(() => undefined);
    await io.flushed();
  };
  try {
    const outcome = await turn;
    await flushed();
    const end = turnEnd(outcome, controller.signal.aborted);
    if ("error" in end) throw new RequestError(-32603, end.error);
    return { stopReason: end.stopReason };
  } catch (error) {
    await flushed();
    // ACP: a cancelled turn answers cancelled, whatever the cancel broke on its way.
    if (controller.signal.aborted) return { stopReason: "cancelled" };
    if (error instanceof RequestError) throw error;
    throw new RequestError(-32603, (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "error");
  } finally {
    held.turn = undefined;
  }
}

/** How a session's asks reach the person: the editor's permission requests, with a write's diff. */
export function askEditor(held: Held, io: Pick<TurnIo, "client" | "gone">) {
  return editorPrompt(io.client, held.runtime.session.id, held.cwd, io.gone, (path, signal) =>
    buffered(held, path, signal),
  );
}

/**
 * What a write would replace, for its ask's diff: the editor's buffer when it reads for bosun
 * (the write goes into it), else the disk's. A buffer the editor does not give leaves the diff
 * out rather than show the disk's text as what is replaced.
 */
async function buffered(held: Held, path: string, signal: AbortSignal): Promise<string | null | undefined> {
  const absolute = resolve(held.cwd, path);
  const disk = before(absolute);
  const read = held.access?.read;
  if (!read || typeof disk !== "string") return disk;
  try {
    // Not approved yet: only a workspace file's buffer is asked for (gate-approval.ts does the same).
    const real = realpathSync(absolute);
    if (!isInside(real, workspaceOf(held.cwd))) return disk;
    return await read(real, signal);
  } catch {
    return undefined;
  }
}

/** A file's content before a write replaces it: null when there is none, undefined when too big or unreadable. */
function before(path: string): string | null | undefined {
  try {
    if (statSync(path).size > BEFORE_MAX_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

function pathOf(input: unknown): string | undefined {
  const path = (input as { path?: unknown } | undefined)?.path;
  return typeof path === "string" ? path : undefined;
}
