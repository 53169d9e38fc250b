import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { LoadedConfig } from "../config/load.js";
import type { Confinement } from "../contracts/confinement.js";
import type { ConnectOutcome } from "./connect-answer.js";
import { startServer } from "./start-server.js";
import type { McpToolInfo } from "./tool.js";
import { transportKinds } from "./transport-kinds.js";
import { remotePlan, stdioPlan } from "./transports.js";

type ServerConfig = NonNullable<LoadedConfig["config"]["mcp"]>[string];

/** Most pages of resources counted: a server that pages for ever is cut off. */
const MAX_PAGES = 50;

/** What one connection to a server found out: `bosun mcp list|get|test` show it. */
export interface ProbeReport {
  outcome: ConnectOutcome;
  /** How long starting and listing its tools took. */
  ms: number;
  server?: { name: string; version: string };
  capabilities: string[];
  tools: McpToolInfo[];
  /** Resources listed; undefined when the server has none to list (or listing failed: `problems`). */
  resources?: number;
  prompts?: Array<{ name: string; description?: string }>;
  /** What failed after the server had connected (listing resources or prompts). */
  problems: string[];
  /** The server said 401: it wants a sign-in bosun cannot give it here. */
  needsSignIn: boolean;
}

/**
 * Starts one server, lists its tools, counts its resources and lists its prompts, then closes
 * it: every step bounded by `timeoutMs`, never throwing (the outcome says why, with the end of
 * its stderr). How it is reached is what a run would do (transports.ts), confinement included.
 */
export async function probeServer(
  server: ServerConfig,
  cwd: string,
  confine: Confinement | undefined,
  timeoutMs: number,
  /** A url server's OAuth, as a run would use it: the credentials `bosun mcp login` stored. */
  auth?: OAuthClientProvider,
): Promise<ProbeReport> {
  const [{ Client }, stdio, http, sse] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
  ]);
  const plans = transportKinds(server).map((kind) =>
    kind === "stdio"
      ? stdioPlan(stdio, { ...server, command: server.command ?? "" }, cwd, confine)
      : remotePlan(kind, { http, sse }, { ...server, url: server.url ?? "" }, auth),
  );
  const began = Date.now();
  const { outcome, started } = await startServer(() => new Client({ name: "bosun", version: "0" }), plans, timeoutMs);
  const report: ProbeReport = {
    outcome,
    ms: Date.now() - began,
    capabilities: [],
    tools: started?.infos ?? [],
    problems: [],
    needsSignIn: !outcome.ok && (outcome.signIn === true || /\b401\b|unauthori[sz]ed/i.test(outcome.message)),
  };
  if (!started) return report;
  let timer: NodeJS.Timeout | undefined;
  // Each request is bounded, and so are all of them together: a server paging slowly for ever is cut off.
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      report.problems.push(`listing its resources and prompts took longer than ${timeoutMs} ms`);
      resolve();
    }, timeoutMs);
  });
  try {
    await Promise.race([describe(started.client, report, timeoutMs), late]);
  } finally {
    clearTimeout(timer);
    await started.client.close().catch(() => {});
  }
  return report;
}

async function describe(client: Client, report: ProbeReport, timeout: number): Promise<void> {
  const version = client.getServerVersion();
  if (version) report.server = { name: version.name, version: version.version };
  const capabilities = client.getServerCapabilities() ?? {};
  report.capabilities = Object.keys(capabilities).sort();
  if (capabilities.resources) {
    try {
      report.resources = await countResources(client, timeout);
    } catch (error) {
      report.problems.push(`listing resources failed: ${(error as Error).message}`);
    }
  }
  if (capabilities.prompts) {
    try {
      const { listPrompts } = await import("./prompts.js");
      report.prompts = (await listPrompts("", client, timeout)).map((p) => ({
        name: p.name,
        ...(p.description ? { description: p.description } : {}),
      }));
    } catch (error) {
      report.problems.push(`listing prompts failed: ${(error as Error).message}`);
    }
  }
}

async function countResources(client: Client, timeout: number): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listResources(cursor ? { cursor } : undefined, { timeout });
    count += listed.resources.length;
    if (!listed.nextCursor || listed.nextCursor === cursor) break;
    cursor = listed.nextCursor;
  }
  return count;
}
