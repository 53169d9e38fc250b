import { ENTRY_DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import { whereSet } from "../config/load.js";
import type { Confinement } from "../contracts/confinement.js";
import type { Decision } from "../contracts/decisions.js";
import type { Tool } from "../contracts/tools.js";
import { BosunError } from "../errors.js";
import { connectAnswer, failureText } from "./connect-answer.js";
import { startServer } from "./start-server.js";
import { stdioPlan } from "./transports.js";

/** How long a server may take to start and list its tools. */
const CONNECT_TIMEOUT_MS = 30_000;

export interface McpConnections {
  tools: Tool[];
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
  if (servers.length === 0) return { tools: [], close: async () => {} } satisfies McpConnections;
  // The SDK, and ajv with the tools (tool.ts), load only when a server is configured.
  const [{ Client }, stdio, { mcpTool }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("./tool.js"),
  ]);
  const results = await Promise.all(
    servers.map(async ([name, server]) => {
      const plan = stdioPlan(stdio, server, cwd, hooks.confinements?.get(`mcp.${name}`));
      const result = await startServer(() => new Client({ name: "bosun", version: "0" }), [plan], CONNECT_TIMEOUT_MS);
      return { name, server, ...result };
    }),
  );
  const clients = results.flatMap((r) => (r.started ? [r.started.client] : []));
  const close = async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
  };
  const tools: Tool[] = [];
  let stop: BosunError | undefined;
  for (const { name, server, outcome, started } of results) {
    const required = requirement(config, name, server);
    hooks.record?.({ seat: "mcp.connect", subject: { server: name }, ...connectAnswer(name, outcome, required) });
    if (!outcome.ok || !started) {
      if (outcome.ok) continue;
      const text = failureText(name, outcome, required.required);
      if (required.required) stop ??= new BosunError(text, 1);
      else hooks.warn?.(text);
      continue;
    }
    const timeout = server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms;
    for (const info of started.infos) tools.push(mcpTool(name, info, started.client, timeout));
  }
  if (stop) {
    await close();
    throw stop;
  }
  return { tools, close } satisfies McpConnections;
}

function requirement(config: LoadedConfig, name: string, server: ServerConfig) {
  const where = whereSet(config, `mcp.${name}.required`);
  return { required: server.required === true, ...(where ? { where } : {}) };
}
