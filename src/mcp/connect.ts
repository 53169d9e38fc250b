import { ENTRY_DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import type { Confinement } from "../contracts/confinement.js";
import type { Tool } from "../contracts/tools.js";
import { BosunError } from "../errors.js";
import { bwrapProgram, confinedArgv } from "../permission/gate/sandbox.js";
import type { McpToolInfo } from "./tool.js";

/** How long a server may take to start and list its tools. */
const CONNECT_TIMEOUT_MS = 30_000;

export interface McpConnections {
  tools: Tool[];
  close(): Promise<void>;
}

/**
 * Starts every enabled MCP server of the config (stdio), lists its tools, and offers them as
 * bosun tools. The SDK loads only when a server is configured. A server that cannot start or
 * list its tools stops the run with an error naming it — its tools are never silently missing.
 */
export async function connectMcpServers(
  config: LoadedConfig,
  cwd: string,
  /** `mcp.<name>` keys not to start (not approved: seat project.command). */
  skip: ReadonlySet<string> = new Set(),
  /** A repository's servers, by key, and how each is confined (seat exec.sandbox; undefined: shell.sandbox off). */
  confinements: ReadonlyMap<string, Confinement | undefined> = new Map(),
): Promise<McpConnections> {
  const servers = Object.entries(config.config.mcp ?? {}).filter(
    ([name, server]) => (server.enabled ?? ENTRY_DEFAULTS.mcp_server.enabled) && !skip.has(`mcp.${name}`),
  );
  if (servers.length === 0) return { tools: [], close: async () => {} };
  // The SDK, and ajv with the tools (tool.ts), load only when a server is configured.
  const [{ Client }, { StdioClientTransport, getDefaultEnvironment }, { mcpTool }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("./tool.js"),
  ]);
  const clients: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
  };
  const tools: Tool[] = [];
  try {
    for (const [name, server] of servers) {
      const client = new Client({ name: "bosun", version: "0" });
      // A repository's server runs inside its confinement: bwrap runs the server's own command.
      const confine = confinements.get(`mcp.${name}`);
      const argv = [server.command, ...(server.args ?? [])];
      const [command, ...args] = confine ? [bwrapProgram(), ...confinedArgv(confine, cwd, argv)] : argv;
      const transport = new StdioClientTransport({
        command: command as string,
        args,
        // The SDK's short list (PATH, HOME, ...) and what the config gives: never the user's keys.
        env: { ...getDefaultEnvironment(), ...server.env },
        cwd,
        stderr: "ignore",
      });
      try {
        await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
        clients.push(client);
        const listed = await client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS });
        for (const info of listed.tools) {
          tools.push(
            mcpTool(name, info as McpToolInfo, client, server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms),
          );
        }
      } catch (error) {
        throw new BosunError(
          `MCP server "${name}" (${server.command}) could not start: ${(error as Error).message}`,
          1,
        );
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { tools, close };
}
