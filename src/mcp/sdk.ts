/**
 * The MCP SDK and the modules built on it, loaded together and only when a server is configured:
 * a session without MCP servers never pays for the SDK or ajv.
 */
export async function loadMcpSdk() {
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
  return { Client, stdio, http, sse, mcpTool, resourceTools, elicit, prompting };
}

export type McpSdk = Awaited<ReturnType<typeof loadMcpSdk>>;
