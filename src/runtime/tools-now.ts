import { toolMatches } from "../agents/delegation.js";
import type { Decision } from "../contracts/decisions.js";
import type { Tool, ToolVersion } from "../contracts/tools.js";
import type { McpConnections } from "../mcp/connect.js";
import { reconnectFollowed } from "./server-context.js";

/**
 * The session's tools as they stand, read at each step: bosun's own as they were, with the MCP
 * tools as they are now (a server changed its tools, or was started again), narrowed by the
 * agent's `tools` alike. Until any server's set changed, the session's tools as opened.
 */
export function toolsNow(
  tools: readonly Tool[],
  mcp: Pick<McpConnections, "now">,
  agentTools: readonly string[] | undefined,
): () => ToolVersion {
  const mine = (tool: Tool) => !agentTools || agentTools.some((pattern) => toolMatches(pattern, tool.name));
  return () => {
    const now = mcp.now();
    if (now.version === 0) return { version: 0, tools };
    return { version: now.version, tools: [...tools.filter((t) => t.kind !== "mcp"), ...now.tools.filter(mine)] };
  };
}

/**
 * The face's handles on the session's MCP servers: their prompts, how they stand, and a restart
 * (which records a change of what the server tells the model, seat context.instructions).
 */
export function mcpHandles(
  mcp: Pick<McpConnections, "prompts" | "getPrompt" | "status" | "reconnect" | "instructions" | "now">,
  record: (decision: Decision) => void,
) {
  return {
    mcpPrompts: mcp.prompts,
    mcpPrompt: mcp.getPrompt,
    mcpStatus: mcp.status,
    mcpReconnect: reconnectFollowed(mcp, record),
  };
}
