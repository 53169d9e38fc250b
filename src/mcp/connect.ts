import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { ENTRY_DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import { whereSet } from "../config/load.js";
import { dataDir } from "../config/paths.js";
import type { Confinement } from "../contracts/confinement.js";
import type { Decision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { Tool, ToolVersion } from "../contracts/tools.js";
import { BosunError } from "../errors.js";
import { connectAnswer, failureText, promptsRelistAnswer, reconnectRefusal, relistAnswer } from "./connect-answer.js";
import { runAuthFor } from "./oauth.js";
import type { McpPrompt } from "./prompts.js";
import { decideReconnect, type ReconnectOutcome, reconnectServer } from "./reconnect.js";
import { loadMcpSdk } from "./sdk.js";
import { McpServerSet, refusedOf, type ServerConfig, type ServerEntry } from "./server-set.js";
import { type ServerStatus, serverStatuses, type Untrusted } from "./status.js";

export interface McpConnections {
  tools: Tool[];
  /**
   * What each connected server said of how to use it, for the system prompt (seat
   * context.instructions), as things stand: a server started again may say something else.
   */
  instructions(): Array<{ server: string; text: string }>;
  /** The servers' prompts, offered as slash commands `/mcp:<server>:<prompt>`: the same array until one server's change. */
  prompts(): readonly McpPrompt[];
  /** One prompt's messages as the text to send, for the person's words; or why not. */
  getPrompt(
    prompt: McpPrompt,
    words: readonly string[],
    signal: AbortSignal,
  ): Promise<{ ok: true; text: string } | { ok: false; problem: string }>;
  close(): Promise<void>;
  /** The MCP tools as they stand: a new version each time a server's tools changed or it was started again. */
  now(): ToolVersion;
  /** Every configured server as things stand (for /mcp). */
  status(): ServerStatus[];
  /** Starts one server again, recorded (seat mcp.connect); its tools are offered from the next step. */
  reconnect(name: string): Promise<ReconnectOutcome>;
}

/** What connecting needs besides the config: where it records and warns. */
export interface ConnectHooks {
  /** `mcp.<name>` keys not to start (not approved: seat project.command). */
  skip?: ReadonlySet<string>;
  /** Why each of those, and the servers an untrusted repository's config left out whole: /mcp lists them as needing trust. */
  untrusted?: Untrusted;
  /** A repository's servers, by key, and how each is confined (seat exec.sandbox; undefined: shell.sandbox off). */
  confinements?: ReadonlyMap<string, Confinement | undefined>;
  record?: (decision: Decision) => void;
  warn?: (text: string) => void;
  /**
   * The OAuth provider a remote server signs in with; undefined for one: headers only. Default
   * (oauth.ts): what `bosun mcp login` stored in the data folder, and "needs sign-in" without it.
   */
  authFor?: (name: string, server: ServerConfig) => OAuthClientProvider | undefined;
  /** Names bosun's own tools hold: an MCP tool by one of them is refused. */
  reserved?: readonly string[];
  /** Where a server's form (elicitation) goes: the person's face; none: declined, recorded. */
  question?: QuestionPrompt;
}

/**
 * Starts every enabled MCP server of the config at once, each bounded, lists its tools, and
 * offers them as bosun tools. The SDK loads only when a server is configured. A server that
 * fails is recorded (seat mcp.connect), warned about and left out — its tools are missing, but
 * never silently; one the config marks required stops the run instead, naming it and its stderr.
 */
export async function connectMcpServers(
  config: LoadedConfig,
  cwd: string,
  hooks: ConnectHooks = {},
): Promise<McpConnections> {
  const skip = hooks.skip ?? new Set();
  const servers = Object.entries(config.config.mcp ?? {}).filter(
    ([name, server]) => (server.enabled ?? ENTRY_DEFAULTS.mcp_server.enabled) && !skip.has(`mcp.${name}`),
  );
  const untrusted = hooks.untrusted ?? {};
  if (servers.length === 0) return idle(config, skip, untrusted, hooks.record);
  const sdk = await loadMcpSdk();
  const authFor = hooks.authFor ?? runAuthFor(dataDir());
  const set = new McpServerSet(sdk, cwd, { ...hooks, authFor }, (relisted) => {
    if ("error" in relisted) {
      hooks.warn?.(
        `MCP server "${relisted.name}" changed its ${relisted.what} but could not list them: ${relisted.error}`,
      );
      return;
    }
    const answer =
      relisted.what === "prompts"
        ? promptsRelistAnswer(relisted.entry.prompts.length)
        : relistAnswer(
            relisted.entry.started?.infos.length ?? 0,
            relisted.version,
            refusedOf(relisted.entry, relisted.refused),
          );
    hooks.record?.({ seat: "mcp.connect", subject: { server: relisted.entry.name }, ...answer });
  });
  const entries = await set.startAll(servers);
  const stop = recordStarts(config, entries, set.refusals(), hooks);
  for (const why of set.refusals().values()) hooks.warn?.(`MCP tool ${why}`);
  if (stop) {
    await set.close();
    throw stop;
  }
  return {
    tools: [...set.now().tools],
    instructions: () => set.instructions(),
    prompts: () => set.prompts(),
    // The server's client as it stands when asked: a restart replaces it.
    getPrompt: (prompt, words, signal) =>
      sdk.prompting.fetchPrompt(promptClient(set, prompt.server), prompt, words, signal),
    close: () => set.close(),
    now: () => set.now(),
    status: () => serverStatuses(config, skip, set.all(), set.refusals(), untrusted),
    reconnect: (name) =>
      reconnectServer(
        set,
        { config, skip, ...(untrusted.leftOut ? { leftOut: untrusted.leftOut } : {}), ...hooks },
        name,
      ),
  };
}

/** No server to start: nothing offered, /mcp still says why each configured one is not there. */
function idle(
  config: LoadedConfig,
  skip: ReadonlySet<string>,
  untrusted: Untrusted,
  record?: (decision: Decision) => void,
): McpConnections {
  return {
    tools: [],
    instructions: () => [],
    prompts: () => [],
    getPrompt: async () => ({ ok: false, problem: "no MCP server is connected" }),
    close: async () => {},
    now: () => ({ version: 0, tools: [] }),
    status: () => serverStatuses(config, skip, [], new Map(), untrusted),
    reconnect: async (name) => {
      const problem =
        decideReconnect(config, skip, name, false, untrusted.leftOut) ?? `MCP server ${name} was not started`;
      record?.({ seat: "mcp.connect", subject: { server: name }, ...reconnectRefusal("not started again", problem) });
      return { ok: false, problem };
    },
  };
}

/** Seat mcp.connect for each server as its start ended; the error that stops the run, when a required one failed. */
function recordStarts(
  config: LoadedConfig,
  entries: readonly ServerEntry[],
  refused: ReadonlyMap<string, string>,
  hooks: ConnectHooks,
): BosunError | undefined {
  let stop: BosunError | undefined;
  for (const entry of entries) {
    const { name, server, outcome } = entry;
    const required = requirement(config, name, server);
    const answer = connectAnswer(name, outcome, required);
    for (const why of refusedOf(entry, refused)) answer.reasons.push({ rule: "refused", detail: why });
    hooks.record?.({ seat: "mcp.connect", subject: { server: name }, ...answer });
    if (outcome.ok) continue;
    const text = failureText(name, outcome, required.required);
    if (required.required) stop ??= new BosunError(text, 1);
    else hooks.warn?.(text);
  }
  return stop;
}

/** The client a server's prompt is asked of, as the server now stands; undefined when it is not connected. */
function promptClient(set: McpServerSet, name: string) {
  const entry = set.get(name);
  if (!entry?.started) return undefined;
  return { client: entry.started.client, timeout: entry.server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms };
}

function requirement(config: LoadedConfig, name: string, server: ServerConfig) {
  const where = whereSet(config, `mcp.${name}.required`);
  return { required: server.required === true, ...(where ? { where } : {}) };
}
