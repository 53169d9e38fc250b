import { shownConfig } from "../config/display.js";
import type { LoadedConfig, Origin } from "../config/load.js";
import { type TransportKind, transportKinds } from "./transport-kinds.js";

/** One configured MCP server as `bosun mcp list|get` shows it, before anything is started. */
export interface ConfiguredServer {
  name: string;
  /** Where it is reached from: the layer and file (and line) that set its command or url. */
  origin: { layer: string; source: string; file?: string; line?: number };
  /** Every other file that set one of its keys (a layer above may turn it off, or add env). */
  alsoSetIn: string[];
  transport: TransportKind | "http, then sse";
  enabled: boolean;
  required: boolean;
  /** Written in the repository's own config (bosun.json, .mcp.json): it starts only once judged (seat project.command). */
  fromProject: boolean;
  /** Its config as `bosun config` shows it: secrets as their {env:...} references, else redacted. */
  shown: Record<string, unknown>;
}

/** Every configured server, in config order, with where each came from. Pure: nothing is started. */
export function configuredServers(loaded: LoadedConfig): ConfiguredServer[] {
  const shown = (shownConfig(loaded).mcp ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(loaded.config.mcp ?? {}).map(([name, server]) => {
    const prefix = `mcp.${name}.`;
    const origins = [...loaded.origins.entries()].filter(([key]) => key.startsWith(prefix)).map(([, o]) => o);
    const reach = loaded.origins.get(`${prefix}${server.command !== undefined ? "command" : "url"}`) ?? origins[0];
    const kinds = transportKinds(server);
    const files = new Set(origins.map((o) => o.file ?? o.source));
    if (reach) files.delete(reach.file ?? reach.source);
    return {
      name,
      origin: reach
        ? {
            layer: reach.layer,
            source: reach.source,
            ...(reach.file ? { file: reach.file } : {}),
            ...(reach.line ? { line: reach.line } : {}),
          }
        : { layer: "default", source: "built-in" },
      alsoSetIn: [...files],
      transport: kinds.length === 1 ? (kinds[0] as TransportKind) : "http, then sse",
      enabled: server.enabled ?? true,
      required: server.required === true,
      // As project-commands.ts finds them: a key the repository wrote, other than turning it off.
      fromProject: origins.some((o) => o.layer === "project" && !o.key.startsWith(`${prefix}enabled`)),
      shown: shown[name] ?? {},
    };
  });
}

/** `file:line`, or the layer's source (a variable, a flag). */
export function where(origin: Pick<Origin, "source" | "file" | "line">): string {
  return `${origin.file ?? origin.source}${origin.line ? `:${origin.line}` : ""}`;
}
