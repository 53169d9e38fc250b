import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isPlainObject } from "../../util/object.js";
import { anthropic } from "./encode-anthropic.js";
import { openAIChat } from "./encode-openai-chat.js";
import { openAIResponses } from "./encode-openai-responses.js";
import { RuleBook } from "./match.js";
import {
  type ItemMemory,
  type NormalizedRequest,
  normalizeAnthropic,
  normalizeChat,
  normalizeResponses,
  type Protocol,
} from "./normalize.js";
import { type Encoder, type PlannedReply, planReply } from "./plan.js";
import { parseScript, type Reply, type Script } from "./script.js";

/**
 * The scripted model server: a real HTTP server on 127.0.0.1 that answers the OpenAI Chat
 * Completions, Anthropic Messages and OpenAI Responses protocols from a script. It records
 * every request and fails loudly: a request no rule answers, or a scripted call to a tool the
 * request did not advertise, gets HTTP 400 and a line in `failures`. 400, not 500: clients do
 * not retry it, so a script mismatch fails at once instead of after a round of backoff.
 */
const SCRIPT_FAILURE_STATUS = 400;

export interface RecordedRequest {
  /** 1-based, in arrival order; what `match.request` compares against. */
  number: number;
  /** Undefined for a path the server does not serve. */
  protocol: Protocol | undefined;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw request body. */
  body: string;
  /** The parsed body, when it was JSON. */
  json: unknown;
  normalized: NormalizedRequest | undefined;
  /** 0-based index of the rule that answered, if any. */
  rule: number | undefined;
  /** 0-based index of the reply within that rule. */
  reply: number | undefined;
  /** What happened; "pending" until the answer is finished. */
  outcome: "pending" | "replied" | "error" | "cut" | "aborted" | "failure";
  /** HTTP status sent (0 when the client left first). */
  status: number;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `url + "/v1"`: the baseURL for all three AI SDK providers. */
  baseURL: string;
  requests: RecordedRequest[];
  failures: string[];
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  /** Port to listen on; default: any free port. */
  port?: number;
  /** Called with one line per request and per failure (for `bosun dev model-server`). */
  log?: (line: string) => void;
}

interface Route {
  protocol: Protocol;
  encoder: Encoder;
  normalize(body: Record<string, unknown>, memory: ItemMemory): NormalizedRequest;
}

const ROUTES: Record<string, Route> = {
  "/v1/chat/completions": { protocol: "openai-chat", encoder: openAIChat, normalize: normalizeChat },
  "/v1/messages": { protocol: "anthropic", encoder: anthropic, normalize: normalizeAnthropic },
  "/v1/responses": { protocol: "openai-responses", encoder: openAIResponses, normalize: normalizeResponses },
};

/** What one server keeps across requests: the script's rules as they are used up, and what it saw. */
interface ServerState {
  book: RuleBook;
  /** Responses output items, sent back later as `item_reference`. */
  memory: ItemMemory;
  models: string[];
  requests: RecordedRequest[];
  failures: string[];
  log: (line: string) => void;
}

export function startScriptedServer(script: Script, options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const checked = parseScript(script, "(passed to startScriptedServer)");
  const state: ServerState = {
    book: new RuleBook(checked.rules),
    memory: new Map(),
    models: checked.models ?? ["test-model"],
    requests: [],
    failures: [],
    log: options.log ?? (() => {}),
  };

  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    handle(state, req, res, controller.signal).catch((error: unknown) => {
      const message = `internal error of the scripted model server: ${(error as Error)?.stack ?? String(error)}`;
      state.failures.push(message);
      state.log(`FAILURE ${message}`);
      if (!res.headersSent) sendJson(res, 500, openAIChat.errorBody(500, message));
      else res.destroy();
    });
  });
  // Kept alive as a provider keeps them (a short hint makes the client reconnect every request,
  // which no real provider costs); close() still ends every connection, so tests hold none open.
  server.keepAliveTimeout = 30_000;

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}`;
      resolve({
        url,
        baseURL: `${url}/v1`,
        requests: state.requests,
        failures: state.failures,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** One request: recorded, admitted, answered by the script's next matching rule — or failed loudly. */
async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse, signal: AbortSignal) {
  const body = await readBody(req);
  if (body === undefined) return;
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
    sendJson(res, 200, modelList(state.models));
    return;
  }
  const route = ROUTES[path];
  const record: RecordedRequest = {
    number: state.requests.length + 1,
    protocol: route?.protocol,
    method: req.method ?? "",
    path,
    headers: req.headers,
    body,
    json: undefined,
    normalized: undefined,
    rule: undefined,
    reply: undefined,
    outcome: "pending",
    status: 0,
  };
  state.requests.push(record);
  const where = `request ${record.number} (${req.method} ${path})`;
  const fail = (encoder: Encoder, status: number, message: string) => {
    state.failures.push(message);
    state.log(`FAILURE ${message}`);
    record.outcome = "failure";
    record.status = status;
    sendJson(res, status, encoder.errorBody(status, message), { "x-scripted-failure": "1" });
  };

  const admitted = admit(route, req.method, body, where, state.memory);
  record.json = admitted.json;
  if (!admitted.ok) return fail(admitted.encoder, admitted.status, admitted.message);
  const { normalized } = admitted;
  record.normalized = normalized;
  const encoder = admitted.route.encoder;

  const pick = state.book.pick(normalized, record.number);
  if (!pick) return fail(encoder, SCRIPT_FAILURE_STATUS, noRuleMatches(normalized, state.book, where));
  record.rule = pick.rule;
  record.reply = pick.reply;
  state.log(`#${record.number} ${admitted.route.protocol} ${path} → rule ${pick.rule} reply ${pick.reply}`);
  const unadvertised = unadvertisedCalls(pick.value, normalized);
  if (unadvertised !== undefined) {
    return fail(
      encoder,
      SCRIPT_FAILURE_STATUS,
      `${where}: rule ${pick.rule} reply ${pick.reply} calls ${unadvertised}`,
    );
  }
  if (pick.value.providerSearches && admitted.route.protocol !== "anthropic") {
    const why = `${where}: rule ${pick.rule} reply ${pick.reply} scripts providerSearches, which only the anthropic protocol sends`;
    return fail(encoder, SCRIPT_FAILURE_STATUS, why);
  }
  if (pick.value.thinking && !["anthropic", "openai-responses"].includes(admitted.route.protocol)) {
    const why = `${where}: rule ${pick.rule} reply ${pick.reply} scripts thinking, which only the anthropic and openai (responses) protocols send`;
    return fail(encoder, SCRIPT_FAILURE_STATUS, why);
  }
  await answer(state, record, res, { route: admitted.route, json: admitted.json, normalized }, pick.value, signal);
}

type Admission =
  | { ok: true; route: Route; json: Record<string, unknown>; normalized: NormalizedRequest }
  | { ok: false; json?: unknown; encoder: Encoder; status: number; message: string };

/** Whether the request is one the server serves, with a JSON object for a body; then its normalized form. */
function admit(
  route: Route | undefined,
  method: string | undefined,
  body: string,
  where: string,
  memory: ItemMemory,
): Admission {
  if (!route || method !== "POST") {
    const message = `${where}: the scripted model server serves POST ${Object.keys(ROUTES).join(", ")}`;
    return { ok: false, encoder: openAIChat, status: 404, message };
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return {
      ok: false,
      encoder: route.encoder,
      status: 400,
      message: `${where}: the body is not JSON: ${body.slice(0, 200)}`,
    };
  }
  if (!isPlainObject(json)) {
    return { ok: false, json, encoder: route.encoder, status: 400, message: `${where}: the body is not a JSON object` };
  }
  return { ok: true, route, json, normalized: route.normalize(json, memory) };
}

function noRuleMatches(normalized: NormalizedRequest, book: RuleBook, where: string): string {
  const last = normalized.messages[normalized.messages.length - 1];
  const lastText = last ? `${last.role}: ${truncate(last.text, 500)}` : "(no messages)";
  return `${where}: no rule matches. Last message — ${lastText}. Rules that can still answer: ${book.remaining()}`;
}

/** The tools a scripted reply calls that the request did not offer (and the script did not mean to), or undefined. */
function unadvertisedCalls(reply: Reply, normalized: NormalizedRequest): string | undefined {
  const unadvertised = (reply.toolCalls ?? []).filter(
    (call) => !call.unadvertised && !normalized.tools.includes(call.name),
  );
  if (unadvertised.length === 0) return undefined;
  const names = unadvertised.map((call) => `"${call.name}"`).join(", ");
  const offered = normalized.tools.length > 0 ? normalized.tools.join(", ") : "no tools";
  return `${names}, but the request advertised ${offered}`;
}

/** Sends the reply the script chose, as the script shapes it (delayed, hanging, garbage, an error, cut or stalled). */
async function answer(
  state: ServerState,
  record: RecordedRequest,
  res: ServerResponse,
  request: { route: Route; json: Record<string, unknown>; normalized: NormalizedRequest },
  reply: Reply,
  signal: AbortSignal,
): Promise<void> {
  const { route, json, normalized } = request;
  if (reply.delayMs && !(await sleep(reply.delayMs, signal))) {
    record.outcome = "aborted";
    state.log(`#${record.number} client left during the delay`);
    return;
  }
  if (signal.aborted) {
    record.outcome = "aborted";
    return;
  }
  if (reply.hang) {
    state.log(`#${record.number} hangs`);
    await clientLeaves(signal);
    record.outcome = "aborted";
    state.log(`#${record.number} client left the hanging request`);
    return;
  }
  if (reply.garbage !== undefined) {
    const type = normalized.stream ? "text/event-stream; charset=utf-8" : "application/json";
    res.writeHead(200, { "content-type": type, "content-length": Buffer.byteLength(reply.garbage) });
    res.end(reply.garbage);
    record.outcome = "replied";
    record.status = 200;
    return;
  }
  if (reply.error) {
    sendError(res, reply, route.encoder);
    record.outcome = "error";
    record.status = reply.error.status;
    return;
  }

  const plan = planReply(reply, normalized, record.number, Buffer.byteLength(record.body));
  if (route.protocol === "openai-responses") remember(state.memory, plan);
  record.status = 200;
  const done =
    reply.stallAfterBytes !== undefined
      ? await sendStalled(res, plan, route.encoder, json, normalized.stream, reply.stallAfterBytes, signal)
      : normalized.stream
        ? await sendStream(res, route.encoder.events(plan, json), reply, signal)
        : await sendBody(res, route.encoder.json(plan, json), reply.cutAfterChunks);
  record.outcome = done;
  if (done !== "replied") state.log(`#${record.number} ${done}`);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The request body; undefined when the client left before sending all of it. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(undefined));
    req.on("close", () => {
      if (!req.complete) resolve(undefined);
    });
  });
}

/** Resolves when the client disconnects (or the server closes): a hang has no end of its own. */
function clientLeaves(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Waits; false when the client disconnected first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, reply: Reply, encoder: Encoder): void {
  const error = reply.error;
  if (!error) return;
  const headers = error.headers ?? {};
  const body = error.body === undefined ? encoder.errorBody(error.status) : error.body;
  if (typeof body === "string") {
    const hasType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
    res.writeHead(error.status, {
      ...(hasType ? {} : { "content-type": "text/plain; charset=utf-8" }),
      "content-length": Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
    return;
  }
  sendJson(res, error.status, body, headers);
}

function write(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => res.write(data, () => resolve()));
}

async function sendStream(
  res: ServerResponse,
  frames: string[],
  pacing: { cutAfterChunks?: number; frameDelayMs?: number },
  signal: AbortSignal,
): Promise<RecordedRequest["outcome"]> {
  const cutAfter = pacing.cutAfterChunks;
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  res.flushHeaders();
  for (const [index, frame] of frames.entries()) {
    if (signal.aborted) return "aborted";
    if (cutAfter !== undefined && index >= cutAfter) {
      res.destroy();
      return "cut";
    }
    await write(res, frame);
    // One frame per turn of the event loop, so clients see a stream, not one burst.
    if (pacing.frameDelayMs) {
      if (!(await sleep(pacing.frameDelayMs, signal))) return "aborted";
    } else await new Promise((resolve) => setImmediate(resolve));
  }
  if (signal.aborted) return "aborted";
  if (cutAfter !== undefined && cutAfter < frames.length) {
    res.destroy();
    return "cut";
  }
  res.end();
  return "replied";
}

async function sendBody(
  res: ServerResponse,
  value: unknown,
  cutAfter: number | undefined,
): Promise<RecordedRequest["outcome"]> {
  if (cutAfter === undefined) {
    sendJson(res, 200, value);
    return "replied";
  }
  const text = JSON.stringify(value);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  await write(res, text.slice(0, Math.floor(text.length / 2)));
  res.destroy();
  return "cut";
}

/**
 * The first `bytes` of the body, then silence with the connection open, until the client leaves:
 * a provider that stalls mid-stream. Outcome "aborted" once the client gives up.
 */
async function sendStalled(
  res: ServerResponse,
  plan: PlannedReply,
  encoder: Encoder,
  json: Record<string, unknown>,
  stream: boolean,
  bytes: number,
  signal: AbortSignal,
): Promise<RecordedRequest["outcome"]> {
  const body = Buffer.from(stream ? encoder.events(plan, json).join("") : JSON.stringify(encoder.json(plan, json)));
  res.writeHead(200, {
    "content-type": stream ? "text/event-stream; charset=utf-8" : "application/json",
    ...(stream ? { "cache-control": "no-cache" } : { "content-length": body.length }),
  });
  res.flushHeaders();
  if (bytes > 0) await new Promise<void>((resolve) => res.write(body.subarray(0, bytes), () => resolve()));
  await clientLeaves(signal);
  return "aborted";
}

/** Remembers Responses output items: the SDK sends them back later as `item_reference`. */
function remember(memory: ItemMemory, plan: PlannedReply): void {
  if (plan.text !== "") memory.set(plan.messageId, { role: "assistant", text: plan.text });
  for (const call of plan.toolCalls) {
    memory.set(call.itemId, { role: "assistant", text: `tool_call ${call.name} ${call.arguments}` });
  }
}

/** A model list both OpenAI and Anthropic clients can read. */
function modelList(models: string[]): unknown {
  const data = models.map((id) => ({
    id,
    object: "model",
    created: 0,
    owned_by: "scripted",
    type: "model",
    display_name: id,
    created_at: "1970-01-01T00:00:00Z",
  }));
  return { object: "list", data, has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null };
}
