import type { McpToolInfo } from "./tool.js";

/** A server that keeps giving cursors past this many pages is broken; what was listed is kept. */
const MAX_PAGES = 100;

/** What listing needs of a client: one page of tools per call. */
export interface ToolLister {
  listTools(
    params: { cursor?: string } | undefined,
    options: { timeout: number },
  ): Promise<{ tools: unknown[]; nextCursor?: string | undefined }>;
}

/** Every page of a server's tools, following nextCursor (a server may page a long list). */
export async function listAllTools(client: ToolLister, timeout: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    tools.push(...(listed.tools as McpToolInfo[]));
    // An empty or repeated cursor would list the same page for ever.
    if (!listed.nextCursor || listed.nextCursor === cursor) break;
    cursor = listed.nextCursor;
  }
  return tools;
}
