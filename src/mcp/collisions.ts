/** An MCP tool by the name the model would call it, and whose it is. */
export interface NamedMcpTool {
  name: string;
  server: string;
  tool: string;
}

/**
 * Which MCP tools are refused for their name: two tools that come out as the same name once cut
 * to 64 characters (mcpToolName), or one named as a built-in is. A call by that name could reach
 * the wrong tool, so none of the MCP tools of such a name is offered or run — bosun never picks
 * one. Returns each refused name with why; the caller refuses, warns and records.
 */
export function decideCollisions(reserved: readonly string[], tools: readonly NamedMcpTool[]): Map<string, string> {
  const byName = new Map<string, NamedMcpTool[]>();
  for (const tool of tools) byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
  const refused = new Map<string, string>();
  const builtIn = new Set(reserved);
  for (const [name, same] of byName) {
    const owners = same.map((t) => `${t.server}/${t.tool}`).join(", ");
    if (builtIn.has(name)) refused.set(name, `${name} (${owners}) is the name of a built-in tool: refused`);
    else if (same.length > 1)
      refused.set(name, `${name} is the name of ${same.length} MCP tools (${owners}): all refused`);
  }
  return refused;
}
