import { isPlainObject } from "./keypath.js";

/**
 * Claude Code's project MCP file, `.mcp.json` at the repository root
 * (`{"mcpServers": {"name": {"command", "args", "env"} | {"type": "http"|"sse", "url", "headers"}}}`), read as a project layer of `mcp.<name>`
 * entries (load.ts), below the project's bosun.json. Its servers are commands the repository
 * brings, exactly like a repository bosun.json's: they pass seat `project.command` before they
 * start (permission/trust/project-commands.ts finds them by their project-layer origins).
 * Pure: translation only; a server that cannot be translated is left out with why, never fatal
 * (a file written for another tool must not stop bosun).
 */

export interface McpJsonTranslation {
  /** The layer: `{ mcp: { <name>: {...} } }`; `{}` when nothing was translated. */
  data: { mcp?: Record<string, Record<string, unknown>> };
  /** Servers or keys left out, each with why. */
  skipped: Array<{ key: string; reason: string }>;
}

const NAME = /^[A-Za-z0-9_-]+$/;

/**
 * `${VAR}` becomes bosun's `{env:VAR}`, so the repository's reference rules apply to it (a
 * withheld key expands only into a server's env, an unset one leaves the server out: references.ts).
 * `${VAR:-default}`: `{env:VAR}` when VAR is set and not empty, else the default as written.
 */
export function expandVariables(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
    if (fallback === undefined) return `{env:${name}}`;
    const set = env[name];
    return set !== undefined && set !== "" ? `{env:${name}}` : fallback;
  });
}

/** The `.mcp.json` document as bosun's `mcp` entries. */
export function translateMcpJson(document: unknown, env: NodeJS.ProcessEnv): McpJsonTranslation {
  const skipped: McpJsonTranslation["skipped"] = [];
  if (!isPlainObject(document)) return { data: {}, skipped: [{ key: "", reason: "not a JSON object" }] };
  for (const key of Object.keys(document)) {
    if (key !== "mcpServers") skipped.push({ key, reason: "not read: bosun reads mcpServers only" });
  }
  const servers = document.mcpServers;
  if (servers === undefined) return { data: {}, skipped };
  if (!isPlainObject(servers))
    return { data: {}, skipped: [...skipped, { key: "mcpServers", reason: "not an object" }] };
  const mcp: Record<string, Record<string, unknown>> = {};
  for (const [name, server] of Object.entries(servers)) {
    const at = `mcpServers.${name}`;
    if (!NAME.test(name)) {
      skipped.push({ key: at, reason: "an MCP server name may hold letters, digits, _ and -" });
      continue;
    }
    const translated = translateServer(server, env);
    if ("reason" in translated) {
      skipped.push({ key: at, reason: translated.reason });
      continue;
    }
    for (const key of translated.ignored) skipped.push({ key: `${at}.${key}`, reason: "not a key bosun reads" });
    mcp[name] = translated.entry;
  }
  return { data: Object.keys(mcp).length > 0 ? { mcp } : {}, skipped };
}

function translateServer(
  server: unknown,
  env: NodeJS.ProcessEnv,
): { entry: Record<string, unknown>; ignored: string[] } | { reason: string } {
  if (!isPlainObject(server)) return { reason: "not an object" };
  const type = server.type ?? (server.url !== undefined && server.command === undefined ? "http" : "stdio");
  if (type === "http" || type === "sse") return translateRemote(server, type, env);
  if (type !== "stdio") return { reason: `type ${JSON.stringify(type)} is not stdio, http or sse` };
  if (typeof server.command !== "string" || server.command.trim() === "") {
    return { reason: "command must be a non-empty string" };
  }
  const entry: Record<string, unknown> = { command: expandVariables(server.command, env) };
  if (server.args !== undefined) {
    if (!Array.isArray(server.args) || !server.args.every((a) => typeof a === "string")) {
      return { reason: "args must be a list of strings" };
    }
    entry.args = server.args.map((a: string) => expandVariables(a, env));
  }
  if (server.env !== undefined) {
    if (!isPlainObject(server.env) || !Object.values(server.env).every((v) => typeof v === "string")) {
      return { reason: "env must map names to strings" };
    }
    entry.env = Object.fromEntries(
      Object.entries(server.env as Record<string, string>).map(([k, v]) => [k, expandVariables(v, env)]),
    );
  }
  const ignored = Object.keys(server).filter((key) => !["type", "command", "args", "env"].includes(key));
  return { entry, ignored };
}

/**
 * An `http` or `sse` server: `url` and `headers` (both expanded). It runs no program here, so
 * seat `project.command` has nothing to judge; its tools are judged as any MCP tool's, and a
 * repository's headers reading your environment wait for your trust (project-trust.ts).
 */
function translateRemote(
  server: Record<string, unknown>,
  type: "http" | "sse",
  env: NodeJS.ProcessEnv,
): { entry: Record<string, unknown>; ignored: string[] } | { reason: string } {
  if (server.command !== undefined) return { reason: `a ${type} server takes url, not command` };
  if (typeof server.url !== "string") return { reason: "url must be a string" };
  // A url bosun would refuse is left out here, not a config error: the file was written for another tool.
  if (!server.url.includes("${") && !/^https?:\/\/[^\s]+$/.test(server.url)) {
    return { reason: "url must be an http(s) URL" };
  }
  const entry: Record<string, unknown> = { type, url: expandVariables(server.url, env) };
  if (server.headers !== undefined) {
    if (!isPlainObject(server.headers) || !Object.values(server.headers).every((v) => typeof v === "string")) {
      return { reason: "headers must map names to strings" };
    }
    entry.headers = Object.fromEntries(
      Object.entries(server.headers as Record<string, string>).map(([k, v]) => [k, expandVariables(v, env)]),
    );
  }
  const ignored = Object.keys(server).filter((key) => !["type", "url", "headers"].includes(key));
  return { entry, ignored };
}

/** Where a translated key (`mcp.<name>.args`) was written in `.mcp.json` (`mcpServers.<name>.args`). */
export function mcpJsonPath(path: readonly (string | number)[]): Array<string | number> {
  return path[0] === "mcp" ? ["mcpServers", ...path.slice(1)] : [...path];
}
