import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ENTRY_DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import type { Confinement } from "../contracts/confinement.js";
import type { Decision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { Tool, ToolVersion } from "../contracts/tools.js";
import { decideCollisions } from "./collisions.js";
import type { ConnectOutcome } from "./connect-answer.js";
import { listAllTools } from "./list-tools.js";
import type { McpPrompt } from "./prompts.js";
import type { McpSdk } from "./sdk.js";
import { type StartedServer, startServer } from "./start-server.js";
import type { McpToolInfo } from "./tool.js";
import { transportKinds } from "./transport-kinds.js";
import { remotePlan, stdioPlan } from "./transports.js";

/** How long a server may take to start and list its tools. */
export const CONNECT_TIMEOUT_MS = 30_000;

export type ServerConfig = NonNullable<LoadedConfig["config"]["mcp"]>[string];

/** One tool a server brought, by the name the model calls it, before collisions are judged. */
export interface Candidate {
  server: string;
  tool: string;
  made: Tool;
}

/** One started (or failed) server: how its start ended, its client, and the tools it brings. */
export interface ServerEntry {
  name: string;
  server: ServerConfig;
  outcome: ConnectOutcome;
  started?: StartedServer;
  candidates: Candidate[];
  /** Its prompts (slash commands), as last listed: at its start, on prompts/list_changed. */
  prompts: McpPrompt[];
}

/** What the set needs besides the SDK: how servers are reached, and where it records and warns. */
export interface ServerSetHooks {
  confinements?: ReadonlyMap<string, Confinement | undefined>;
  authFor?: (name: string, server: ServerConfig) => OAuthClientProvider | undefined;
  reserved?: readonly string[];
  question?: QuestionPrompt;
  record?: (decision: Decision) => void;
  warn?: (text: string) => void;
}

/** A server's tools listed again: the set as it now stands, and the names refused in it. */
export interface Relisted {
  what: "tools";
  entry: ServerEntry;
  refused: ReadonlyMap<string, string>;
  version: number;
}

/** A server's prompts listed again (prompts/list_changed): `entry.prompts` as they now stand. */
export interface PromptsRelisted {
  what: "prompts";
  entry: ServerEntry;
}

/** A server said a list changed, and listing it again failed: what it offered before stays. */
export interface RelistFailed {
  what: "tools" | "prompts";
  name: string;
  error: string;
}

type ListKind = "tools" | "prompts";

/**
 * The session's MCP servers while it runs: each one's client and tools, and the tool set they
 * make together — a new version whenever a server's tools change (tools/list_changed) or it is
 * started again (/mcp reconnect). It decides nothing: the caller records what each change was.
 */
export class McpServerSet {
  private readonly entries = new Map<string, ServerEntry>();
  private current: ToolVersion = { version: 0, tools: [] };
  private refused: ReadonlyMap<string, string> = new Map();
  /** Every server's prompts together, made again only when one's change: the face reads it as often as it draws. */
  private promptList: readonly McpPrompt[] = [];
  /** Servers that announced a change before every server was up (by list and name): listed again once they are. */
  private readonly early = new Map<string, { what: ListKind; name: string; client: Client }>();
  private up = false;

  constructor(
    private readonly sdk: McpSdk,
    private readonly cwd: string,
    private readonly hooks: ServerSetHooks,
    /** Told of each server whose tools or prompts list_changed was listed again (or could not be). */
    private readonly onRelisted: (relisted: Relisted | PromptsRelisted | RelistFailed) => void,
  ) {}

  /** Starts every server at once, each bounded; the set is version 0. */
  async startAll(servers: ReadonlyArray<[string, ServerConfig]>): Promise<ServerEntry[]> {
    const started = await Promise.all(servers.map(([name, server]) => this.start(name, server)));
    for (const entry of started) this.entries.set(entry.name, entry);
    this.assemble();
    this.up = true;
    // Announced between a server's first listing and the others' being up: listed again now, not lost.
    for (const { what, name, client } of this.early.values()) void this.relist(what, name, client);
    this.early.clear();
    return started;
  }

  now(): ToolVersion {
    return this.current;
  }

  /** The servers' prompts as they stand: the same array until one server's prompts change. */
  prompts(): readonly McpPrompt[] {
    return this.promptList;
  }

  /** What each connected server said of how to use it, as they stand (a restart may change it). */
  instructions(): Array<{ server: string; text: string }> {
    return this.all().flatMap(({ name, started }) =>
      started?.instructions ? [{ server: name, text: started.instructions }] : [],
    );
  }

  /** The names refused for a collision, with why, as the set now stands. */
  refusals(): ReadonlyMap<string, string> {
    return this.refused;
  }

  get(name: string): ServerEntry | undefined {
    return this.entries.get(name);
  }

  all(): ServerEntry[] {
    return [...this.entries.values()];
  }

  /** Stops the server (if it runs) and starts it again: its tools are a new version of the set. */
  async restart(name: string): Promise<Relisted | undefined> {
    const old = this.entries.get(name);
    if (!old) return undefined;
    await old.started?.client.close().catch(() => {});
    const entry = await this.start(name, old.server);
    this.entries.set(name, entry);
    this.assemble();
    this.bump();
    return { what: "tools", entry, refused: this.refused, version: this.current.version };
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.all().map((entry) => entry.started?.client.close()));
  }

  private async start(name: string, server: ServerConfig): Promise<ServerEntry> {
    const { stdio, http, sse } = this.sdk;
    const plans = transportKinds(server).map((kind) =>
      kind === "stdio"
        ? stdioPlan(
            stdio,
            { ...server, command: server.command ?? "" },
            this.cwd,
            this.hooks.confinements?.get(`mcp.${name}`),
          )
        : remotePlan(kind, { http, sse }, { ...server, url: server.url ?? "" }, this.hooks.authFor?.(name, server)),
    );
    const result = await startServer(this.newClient(name), plans, CONNECT_TIMEOUT_MS);
    const candidates = result.started
      ? this.candidatesOf(name, server, result.started.client, result.started.infos)
      : [];
    const prompts = result.started ? await this.promptsOf(name, server, result.started.client) : [];
    return { name, server, ...result, candidates, prompts };
  }

  /** A server's prompts, every page; one whose prompts cannot be listed keeps its tools, and the person is told. */
  private async promptsOf(name: string, server: ServerConfig, client: Client): Promise<McpPrompt[]> {
    if (!client.getServerCapabilities()?.prompts) return [];
    const timeout = server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms;
    return this.sdk.prompting.listPrompts(name, client, timeout).catch((error: Error) => {
      this.hooks.warn?.(`MCP server ${name}: its prompts could not be listed: ${error.message}`);
      return [];
    });
  }

  /** Each client answers its server's forms through the person's face, and hears its tools change. */
  private newClient(name: string): () => Client {
    return () => {
      // Listed again here (every page), not taken from the SDK's one-page refresh. Resources
      // need nothing: the model lists them when it calls list_resources, never from a copy.
      const listChanged = {
        tools: { autoRefresh: false, onChanged: () => void this.relist("tools", name, client) },
        prompts: { autoRefresh: false, onChanged: () => void this.relist("prompts", name, client) },
      };
      const client = new this.sdk.Client(
        { name: "bosun", version: "0" },
        { capabilities: this.sdk.elicit.CLIENT_CAPABILITIES, listChanged },
      );
      this.sdk.elicit.answerElicitations(client, name, {
        ...(this.hooks.question ? { question: this.hooks.question } : {}),
        ...(this.hooks.record ? { record: this.hooks.record } : {}),
      });
      return client;
    };
  }

  /** A server's tools, and for a server with resources the tools to list and read them, named like its own. */
  private candidatesOf(name: string, server: ServerConfig, client: Client, infos: McpToolInfo[]): Candidate[] {
    const timeout = server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms;
    const total = server.max_timeout_ms ?? ENTRY_DEFAULTS.mcp_server.max_timeout_ms;
    const out = infos.map((info) => ({
      server: name,
      tool: info.name,
      made: this.sdk.mcpTool(name, info, client, timeout, total),
    }));
    // Judged for collisions with its own: a tool of its own called list_resources is refused, never confused.
    if (client.getServerCapabilities()?.resources) {
      for (const made of this.sdk.resourceTools(name, client, timeout)) {
        out.push({ server: name, tool: made.name.slice(`mcp__${name}__`.length), made });
      }
    }
    return out;
  }

  /**
   * A server said its tools (or prompts) changed: listed again — tools offered from the next
   * step, prompts the person's commands from now. A stale client's word is ignored.
   */
  private async relist(what: ListKind, name: string, client: Client): Promise<void> {
    if (!this.up) {
      this.early.set(`${what} ${name}`, { what, name, client });
      return;
    }
    const entry = this.entries.get(name);
    if (!entry?.started || entry.started.client !== client) return;
    if (what === "prompts") return this.relistPrompts(entry, client);
    try {
      const infos = await listAllTools(client, CONNECT_TIMEOUT_MS);
      entry.started.infos = infos;
      entry.candidates = this.candidatesOf(name, entry.server, client, infos);
      entry.outcome = { ok: true, tools: infos.length, transport: entry.outcome.transport };
      this.assemble();
      this.bump();
      this.onRelisted({ what: "tools", entry, refused: this.refused, version: this.current.version });
    } catch (error) {
      this.onRelisted({ what, name, error: (error as Error).message });
    }
  }

  private async relistPrompts(entry: ServerEntry, client: Client): Promise<void> {
    const timeout = entry.server.timeout_ms ?? ENTRY_DEFAULTS.mcp_server.timeout_ms;
    try {
      const prompts = await this.sdk.prompting.listPrompts(entry.name, client, timeout);
      // Restarted meanwhile: the new process's prompts are the ones that stand.
      if (entry.started?.client !== client || this.entries.get(entry.name) !== entry) return;
      entry.prompts = prompts;
      this.promptList = this.all().flatMap((e) => e.prompts);
      this.onRelisted({ what: "prompts", entry });
    } catch (error) {
      this.onRelisted({ what: "prompts", name: entry.name, error: (error as Error).message });
    }
  }

  private assemble(): void {
    const candidates = this.all().flatMap((entry) => entry.candidates);
    this.refused = decideCollisions(
      this.hooks.reserved ?? [],
      candidates.map((c) => ({ name: c.made.name, server: c.server, tool: c.tool })),
    );
    const tools = offered(
      candidates.map((c) => c.made),
      this.refused,
      new Set(this.hooks.reserved),
    );
    this.current = { version: this.current.version, tools };
    this.promptList = this.all().flatMap((entry) => entry.prompts);
  }

  private bump(): void {
    this.current = { version: this.current.version + 1, tools: this.current.tools };
  }
}

/** Why each of a server's refused names is refused, once each. */
export function refusedOf(entry: ServerEntry, refused: ReadonlyMap<string, string>): string[] {
  return [...new Set(entry.candidates.flatMap((c) => refused.get(c.made.name) ?? []))];
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
