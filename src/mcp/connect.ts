import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ENTRY_DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import { whereSet } from "../config/load.js";
import { dataDir } from "../config/paths.js";
import type { Confinement } from "../contracts/confinement.js";
import type { Decision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { Tool } from "../contracts/tools.js";
import { BosunError } from "../errors.js";
import { decideCollisions } from "./collisions.js";
import { connectAnswer, failureText } from "./connect-answer.js";
import { runAuthFor } from "./oauth.js";
import type { McpPrompt } from "./prompts.js";
import { startServer } from "./start-server.js";
import { transportKinds } from "./transport-kinds.js";
import { remotePlan, stdioPlan } from "./transports.js";

/** How long a server may take to start and list its tools. */
const CONNECT_TIMEOUT_MS = 30_000;

export interface McpConnections {
  tools: Tool[];
  /** What each connected server said of how to use it, for the system prompt (seat context.instructions). */
  instructions: Array<{ server: string; text: string }>;
  /** The servers' prompts, offered as slash commands `/mcp:<server>:<prompt>`. */
  prompts: McpPrompt[];
  /** One prompt's messages as the text to send, for the person's words; or why not. */
  getPrompt(
    prompt: McpPrompt,
    words: readonly string[],
    signal: AbortSignal,
  ): Promise<{ ok: true; text: string } | { ok: false; problem: string }>;
  close(): Promise<void>;
}

/** What connecting needs besides the config: where it records and warns. */
export interface ConnectHooks {
  /** `mcp.<name>` keys not to start (not approved: seat project.command). */
  skip?: ReadonlySet<string>;
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

type ServerConfig = NonNullable<LoadedConfig["config"]["mcp"]>[string];

/**
 * Starts every enabled MCP server of the config at once, each bounded, lists its tools, and
 * offers them as bosun tools. The SDK loads only when a server is configured. A server that
 * fails is recorded (seat mcp.connect), warned about and left out — its tools are missing, but
 * never silently; one the config marks required stops the run instead, naming it and its stderr.
 */
export async function connectMcpServers(config: LoadedConfig, cwd: string, hooks: ConnectHooks = {}) {
  const skip = hooks.skip ?? new Set();
  const servers = Object.entries(config.config.mcp ?? {}).filter(
    ([name, server]) => (server.enabled ?? ENTRY_DEFAULTS.mcp_server.enabled) && !skip.has(`mcp.${name}`),
  );
  if (servers.length === 0)
    return {
      tools: [],
      instructions: [],
      prompts: [],
      getPrompt: async () => ({ ok: false, problem: "no MCP server is connected" }),
      close: async () => {},
    } satisfies McpConnections;
  // The SDK, and ajv with the tools (tool.ts), load only when a server is configured.
  const [{ Client }, stdio, http, sse, { mcpTool }, { resourceTools }, elicit, prompting] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("./tool.js"),
    import("./resources.js"),
    import("./elicit-handler.js"),
    import("./prompts.js"),
  ]);
  // Each client answers its server's forms through the person's face (or declines them).
  const newClient = (name: string) => () => {
    const client = new Client({ name: "bosun", version: "0" }, { capabilities: elicit.CLIENT_CAPABILITIES });
    elicit.answerElicitations(client, name, {
      ...(hooks.question ? { question: hooks.question } : {}),
      ...(hooks.record ? { record: hooks.record } : {}),
    });
    return client;
  };
  const authFor = hooks.authFor ?? runAuthFor(dataDir());
  const results = await Promise.all(
    servers.map(async ([name, server]) => {
      const plans = transportKinds(server).map((kind) =>
        kind === "stdio"
          ? stdioPlan(stdio, { ...server, command: server.command ?? "" }, cwd, hooks.confinements?.get(`mcp.${name}`))
          : remotePlan(kind, { http, sse }, { ...server, url: server.url ?? "" }, authFor(name, server)),
      );
      const result = await startServer(newClient(name), plans, CONNECT_TIMEOUT_MS);
      return { name, server, ...result };
    }),
  );
  const clients = results.flatMap((r) => (r.started ? [r.started.client] : []));
  const close = async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
  };
  const candidates = results.flatMap(({ name, server, started }) =>
    (started?.infos ?? []).map((info) => {
      const timeout = server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms;
      const total = server.max_timeout_ms ?? ENTRY_DEFAULTS.mcp_server.max_timeout_ms;
      return { server: name, tool: info.name, made: mcpTool(name, info, started?.client as Client, timeout, total) };
    }),
  );
  // A server with resources gets tools to list and read them, named like its own (and so judged
  // for collisions with them): a tool of its own called list_resources is refused, never confused.
  for (const { name, server, started } of results) {
    if (!started?.client.getServerCapabilities()?.resources) continue;
    const timeout = server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms;
    for (const made of resourceTools(name, started.client, timeout)) {
      candidates.push({ server: name, tool: made.name.slice(`mcp__${name}__`.length), made });
    }
  }
  const refused = decideCollisions(
    hooks.reserved ?? [],
    candidates.map((c) => ({ name: c.made.name, server: c.server, tool: c.tool })),
  );
  let stop: BosunError | undefined;
  for (const { name, server, outcome } of results) {
    const required = requirement(config, name, server);
    const answer = connectAnswer(name, outcome, required);
    const mine = new Set(candidates.filter((c) => c.server === name).flatMap((c) => refused.get(c.made.name) ?? []));
    for (const why of mine) answer.reasons.push({ rule: "refused", detail: why });
    hooks.record?.({ seat: "mcp.connect", subject: { server: name }, ...answer });
    if (outcome.ok) continue;
    const text = failureText(name, outcome, required.required);
    if (required.required) stop ??= new BosunError(text, 1);
    else hooks.warn?.(text);
  }
  for (const why of refused.values()) hooks.warn?.(`MCP tool ${why}`);
  const tools = offered(
    candidates.map((c) => c.made),
    refused,
    new Set(hooks.reserved),
  );
  if (stop) {
    await close();
    throw stop;
  }
  const instructions = results.flatMap(({ name, started }) =>
    started?.instructions ? [{ server: name, text: started.instructions }] : [],
  );
  const served = results.flatMap(({ name, server, started }) =>
    started?.client.getServerCapabilities()?.prompts
      ? [{ name, client: started.client, timeout: server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms }]
      : [],
  );
  const { prompts, getPrompt } = await prompting.serverPrompts(served, hooks.warn);
  return { tools, instructions, prompts, getPrompt, close } satisfies McpConnections;
}

/**
 * The tools as offered: a refused name that no built-in holds stays as one tool that refuses
 * every call (prepare says why), so a call by that name can never reach either server; one a
 * built-in holds is left out, and the name is the built-in's.
 */
function offered(tools: Tool[], refused: ReadonlyMap<string, string>, reserved: ReadonlySet<string>): Tool[] {
  const seen = new Set<string>();
  const out: Tool[] = [];
  for (const tool of tools) {
    const why = refused.get(tool.name);
    if (!why) out.push(tool);
    else if (!reserved.has(tool.name) && !seen.has(tool.name)) {
      seen.add(tool.name);
      out.push({ ...tool, unusable: why, description: `(refused: ${why})` });
    }
  }
  return out;
}

function requirement(config: LoadedConfig, name: string, server: ServerConfig) {
  const where = whereSet(config, `mcp.${name}.required`);
  return { required: server.required === true, ...(where ? { where } : {}) };
}
