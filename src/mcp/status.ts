import { ENTRY_DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import type { McpAnnotations } from "../contracts/tools.js";
import type { ServerEntry } from "./server-set.js";

/** One tool of a server as /mcp shows it: its name, its hints, and why it is refused if it is. */
export interface ToolStatus {
  name: string;
  annotations?: McpAnnotations;
  refused?: string;
}

/** What /mcp says of one configured server. */
export interface ServerStatus {
  name: string;
  /** `skipped`: a repository's server seat project.command did not let run. */
  state: "connected" | "failed" | "needs sign-in" | "disabled" | "skipped";
  transport?: string;
  /** How many tools a connected server listed (as the ledger's "connected · N tools" says). */
  listed?: number;
  /** Every tool it brings as offered: its own, and bosun's list_resources/read_resource for a server with resources. */
  tools: ToolStatus[];
  /** Why it failed, or why it was never started. */
  error?: string;
  /** The last lines it wrote to stderr (at failure, or as they stand now). */
  stderr: readonly string[];
}

/**
 * Every server the config names, in its order, as things stand: started ones by how their
 * start (or last restart) ended, the others by why they were never started.
 */
export function serverStatuses(
  config: LoadedConfig,
  skip: ReadonlySet<string>,
  entries: readonly ServerEntry[],
  refused: ReadonlyMap<string, string>,
): ServerStatus[] {
  return Object.entries(config.config.mcp ?? {}).map(([name, server]) => {
    const entry = entries.find((e) => e.name === name);
    if (!entry) {
      if (!(server.enabled ?? ENTRY_DEFAULTS.mcp_server.enabled)) {
        return { name, state: "disabled", tools: [], error: `mcp.${name}.enabled is false`, stderr: [] };
      }
      const why = skip.has(`mcp.${name}`)
        ? "a repository's server not approved to run (seat project.command)"
        : "not started";
      return { name, state: "skipped", tools: [], error: why, stderr: [] };
    }
    const { outcome } = entry;
    if (!outcome.ok) {
      return {
        name,
        // An OAuth server with no usable stored tokens: `bosun mcp login` is the way on, then a reconnect.
        state: outcome.signIn ? "needs sign-in" : "failed",
        transport: outcome.transport,
        tools: [],
        error: outcome.message,
        stderr: outcome.stderr,
      };
    }
    const tools = entry.candidates.map(({ made }) => {
      const why = refused.get(made.name);
      return {
        name: made.name,
        ...(made.mcp?.annotations ? { annotations: made.mcp.annotations } : {}),
        ...(why ? { refused: why } : {}),
      };
    });
    const stderr = entry.started?.stderr() ?? [];
    return { name, state: "connected", transport: outcome.transport, listed: outcome.tools, tools, stderr };
  });
}
