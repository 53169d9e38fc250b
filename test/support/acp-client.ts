import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import {
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  methods,
  ndJsonStream,
  RequestError,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import type { Scenario } from "./scenario.js";
import { BOSUN_BIN } from "./workspace.js";

/** An editor, as the SDK's client side: drives `bosun acp` as a child process over its stdio. */
export interface AcpEditor {
  child: ChildProcess;
  agent: ClientContext;
  /** Every session/update received, in order. */
  updates: SessionNotification[];
  /** Every permission request received, in order. */
  asked: RequestPermissionRequest[];
  /** How the editor answers the next permission requests (the person's choice); default: reject. */
  answer: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** Every form (elicitation) received, in order, and how the editor fills the next ones; default: decline. */
  forms: CreateElicitationRequest[];
  fill: (request: CreateElicitationRequest) => CreateElicitationResponse;
  /** The editor's open buffers by absolute path: fs/read_text_file answers from them (else the disk), fs/write_text_file writes into them. */
  buffers: Map<string, string>;
  /** Every path the editor was asked to read, and every write it was asked to make, in order. */
  fsReads: string[];
  fsWrites: Array<{ path: string; content: string }>;
  /** Whether a write the editor takes is also saved to disk (as an editor saving the buffer would). */
  saveWrites: boolean;
  /** An editor whose fs fails: "error" answers with an error, "hang" never answers (the request is still recorded). */
  fsFault: { read?: "error" | "hang"; write?: "error" | "hang" };
  stderr(): string;
  /** Closes stdin (the editor goes away) and waits for bosun to exit. */
  close(): Promise<number | null>;
}

export function startAcp(s: Scenario, args: string[] = []): AcpEditor {
  // stdin stays open, stdout is read as bytes: they are the editor's side of the connection.
  const child = spawn(process.execPath, [BOSUN_BIN, "acp", ...args], {
    cwd: s.ws.dir,
    env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const editor: AcpEditor = {
    child,
    updates: [],
    asked: [],
    forms: [],
    fill: () => ({ action: "decline" }),
    buffers: new Map(),
    fsReads: [],
    fsWrites: [],
    saveWrites: false,
    fsFault: {},
    answer: () => ({ outcome: { outcome: "selected", optionId: "reject" } }),
    stderr: () => stderr,
    agent: undefined as unknown as ClientContext,
    async close() {
      child.stdin?.end();
      return exited;
    },
  };
  const app = client({ name: "test editor" })
    .onNotification(methods.client.session.update, ({ params }) => {
      editor.updates.push(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      editor.asked.push(params);
      return editor.answer(params);
    })
    .onRequest(methods.client.elicitation.create, ({ params }) => {
      editor.forms.push(params);
      return editor.fill(params);
    })
    .onRequest(methods.client.fs.readTextFile, ({ params }) => {
      editor.fsReads.push(params.path);
      if (editor.fsFault.read) return fault(editor.fsFault.read);
      return { content: editor.buffers.get(params.path) ?? readFileSync(params.path, "utf8") };
    })
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      editor.fsWrites.push({ path: params.path, content: params.content });
      if (editor.fsFault.write) return fault(editor.fsFault.write);
      editor.buffers.set(params.path, params.content);
      if (editor.saveWrites) writeFileSync(params.path, params.content);
      return {};
    });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>,
  );
  editor.agent = app.connect(stream).agent;
  return editor;
}

/** An fs request the editor fails: an error it answers with, or an answer that never comes. */
function fault(kind: "error" | "hang"): Promise<never> {
  if (kind === "hang") return new Promise<never>(() => {});
  return Promise.reject(
    new RequestError(-32603, "Internal error", { details: "the buffer is locked by another extension" }),
  );
}
