import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import {
  type AgentApp,
  type AgentContext,
  agent,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { BosunError } from "../errors.js";
import { delegateOf } from "../session/delegates.js";
import { homesOf } from "../session/home.js";
import { sqliteJournal } from "../session/journal.js";
import type { SessionStore } from "../store/session-store.js";
import { editorTurn } from "./command-turn.js";
import { offeredCommands } from "./commands.js";
import { editorFiles } from "./editor-files.js";
import type { Held, HeldSessions } from "./held.js";
import { editorServers } from "./mcp-servers.js";
import { isMode, modeState } from "./modes.js";
import { VIA_EDITOR } from "./permission.js";
import { editorQuestions } from "./questioner.js";
import { REPLAY_TYPES, replayUpdates } from "./replay.js";
import { sessionPage } from "./session-list.js";
import { terminalDecision } from "./terminal.js";

export interface AgentDeps {
  sessions: HeldSessions;
  store: SessionStore;
  version: string;
  /** The mode of the sessions it creates (bosun acp --mode); else config's, as at the terminal. */
  mode?: string;
  /** Longest wait for the editor's fs/read_text_file and fs/write_text_file (bosun acp --fs-timeout). */
  fsTimeoutMs?: number;
  /** Where what the editor is not shown goes (stderr: stdout is the protocol). */
  log: (text: string) => void;
}

/**
 * bosun as an ACP agent: the editor's sessions are bosun sessions (the same store, ledger,
 * leases and authority as the terminal), its prompts bosun turns, its answers to asks the
 * person's. The handlers parse and answer; the runtime decides, the deciders of this folder map.
 */
export function bosunAgent(deps: AgentDeps): AgentApp {
  const { sessions, store } = deps;
  // One queue for the connection's notifications: the editor reads updates in the order they happened.
  let sending: Promise<unknown> = Promise.resolve();
  const notify = (client: AgentContext, sessionId: string, update: SessionUpdate) => {
    sending = sending
      .then(() => client.notify(methods.client.session.update, { sessionId, update }))
      .catch(() => undefined);
    return sending;
  };
  const find = (id: string): Held => {
    const held = sessions.get(id);
    if (!held) throw RequestError.invalidParams({ sessionId: id }, `no session ${id} is open here`);
    return held;
  };

  const offer = (client: AgentContext, held: Held) =>
    offerCommands(held, (update) => notify(client, held.runtime.session.id, update));
  // Aborted when the editor's connection closes: an ask still waiting then has nobody to answer it.
  let gone = new AbortController().signal;
  // Whether the editor offered its terminal (never used: seat exec.terminal, terminal.ts).
  let terminal = false;
  const kept = (held: Held) => {
    const decision = terminalDecision(terminal);
    if (decision) held.runtime.record(decision);
    return held;
  };
  return agent({ name: "bosun" })
    .onConnect((connection) => {
      gone = connection.signal;
    })
    .onRequest(methods.agent.initialize, ({ params, client }) => {
      // Questions go to the editor only if it draws forms; else nobody is asked, and that is said.
      if (params.clientCapabilities?.elicitation?.form) sessions.questions = (id) => editorQuestions(client, id);
      // Files through the editor's buffers for the sides it offers; the gate still judges every path first.
      const fs = params.clientCapabilities?.fs;
      sessions.files = (id) => editorFiles(client, id, fs, deps.fsTimeoutMs);
      terminal = params.clientCapabilities?.terminal === true;
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {} },
        },
        agentInfo: { name: "bosun", version: deps.version },
        authMethods: [],
      };
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      const cwd = folder(params.cwd);
      const servers = editorServers(params.mcpServers);
      for (const note of servers.notes) deps.log(note);
      const held = kept(await opened(() => sessions.hold(cwd, deps.mode ? { mode: deps.mode } : {}, servers.flags)));
      offer(client, held);
      return {
        sessionId: held.runtime.session.id,
        modes: modeState(held.runtime.mode),
        ...(servers.notes.length > 0 ? { _meta: { bosun: { notes: servers.notes } } } : {}),
      };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const cwd = folder(params.cwd);
      const known = store.get(params.sessionId.toUpperCase());
      if (!known) throw RequestError.invalidParams({ sessionId: params.sessionId }, "no such bosun session");
      const servers = editorServers(params.mcpServers);
      for (const note of servers.notes) deps.log(note);
      const held =
        sessions.get(known.id) ??
        kept(
          await opened(() =>
            sessions.hold(cwd, { session: known.id }, servers.flags, {
              cwdUnasked: "the editor (ACP) named the folder in session/load",
            }),
          ),
        );
      // The history first, then the answer: ACP's order, so the editor's thread is whole when load returns.
      const events = sqliteJournal(store, known.id).eventsAfter(0, REPLAY_TYPES);
      for (const update of replayUpdates(events, cwd)) void notify(client, known.id, update);
      await sending;
      offer(client, held);
      return { modes: modeState(held.runtime.mode) };
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      // The folder's sessions as `bosun sessions` finds them (the repository's, from any of its folders).
      const listed = store.list(params.cwd ? homesOf(folder(params.cwd)) : undefined);
      const own = listed.filter((s) => s.parentId === null || delegateOf(store, s.id) === undefined);
      return sessionPage(own, params.cursor);
    })
    .onRequest(methods.agent.session.setMode, async ({ params, client }) => {
      const held = find(params.sessionId);
      if (!isMode(params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId }, "not a bosun mode");
      if (held.turn) throw RequestError.invalidRequest(undefined, "a turn is running: change the mode after it");
      if (held.runtime.mode === params.modeId) return {};
      // The person's choice, as --mode is (seat permission.mode): the session opens again in that mode.
      const again = await opened(() =>
        sessions.reopen(held, { mode: params.modeId }, { rule: "session/set_mode", source: VIA_EDITOR }),
      );
      await notify(client, params.sessionId, {
        sessionUpdate: "current_mode_update",
        currentModeId: again.runtime.mode,
      });
      return {};
    })
    .onRequest(methods.agent.session.prompt, ({ params, client }) =>
      editorTurn(find(params.sessionId), params.prompt, {
        client,
        gone,
        send: (update) => void notify(client, params.sessionId, update),
        flushed: () => sending,
      }),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.controller.abort(new Error("cancelled by the editor (session/cancel)"));
    });
}

/** The thread's slash commands, once the answer naming the session has gone out (the next tick). */
function offerCommands(held: Held, send: (update: SessionUpdate) => unknown): void {
  const update: SessionUpdate = {
    sessionUpdate: "available_commands_update",
    availableCommands: offeredCommands(held.customs),
  };
  setTimeout(() => void send(update), 0);
}

/** The folder a session works in: absolute and there, or the request is refused. */
function folder(cwd: string): string {
  let ok = false;
  try {
    ok = isAbsolute(cwd) && statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw RequestError.invalidParams({ cwd }, `cwd: ${cwd} is not an absolute path of a folder`);
  return cwd;
}

/** An opening's error in bosun's own words (a config error, no model): the editor shows the message. */
async function opened<T>(open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (error instanceof BosunError) throw new RequestError(-32603, oneLine(error));
    throw error;
  }
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "error";
}
