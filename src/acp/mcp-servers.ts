import type { McpServer } from "@agentclientprotocol/sdk";
import type { FlagValue } from "../config/load.js";

/** Where an editor's servers come from, as the config layer names it. */
export const EDITOR_MCP = "the editor's mcpServers (ACP session/new)";

/** The editor's MCP servers as bosun config: one flag-layer value each, and what was changed or left out, said. */
export interface EditorServers {
  flags: FlagValue[];
  notes: string[];
}

/**
 * The MCP servers an editor passes with session/new or session/load, as bosun's own `mcp`
 * config for that session: the person's settings (they set them in the editor), a layer above
 * their config files as a flag is. Names become bosun's server names (letters, digits, _ and -);
 * a second server of the same name is left out. Pure: the caller passes `flags` to openRuntime.
 */
export function editorServers(servers: readonly McpServer[]): EditorServers {
  const flags: FlagValue[] = [];
  const notes: string[] = [];
  const taken = new Set<string>();
  for (const server of servers) {
    const name = server.name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "editor";
    if (taken.has(name)) {
      notes.push(`MCP server "${server.name}" left out: another of the editor's servers is named ${name}`);
      continue;
    }
    taken.add(name);
    if (name !== server.name) notes.push(`MCP server "${server.name}" is named ${name} in bosun`);
    flags.push({ flag: EDITOR_MCP, path: ["mcp", name], value: entryOf(server) });
  }
  return { flags, notes };
}

function entryOf(server: McpServer): Record<string, unknown> {
  if ("type" in server && (server.type === "http" || server.type === "sse")) {
    const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
    return { url: server.url, type: server.type, ...(server.headers.length > 0 ? { headers } : {}) };
  }
  const stdio = server as Extract<McpServer, { command: string }>;
  const env = Object.fromEntries(stdio.env.map((v) => [v.name, v.value]));
  return {
    command: stdio.command,
    ...(stdio.args.length > 0 ? { args: stdio.args } : {}),
    ...(stdio.env.length > 0 ? { env } : {}),
  };
}
