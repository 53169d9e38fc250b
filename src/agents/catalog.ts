import { BOSUN_TOOLS } from "../config/agent-formats.js";
import type { LoadedConfig } from "../config/load.js";
import type { Decision, Reason } from "../contracts/decisions.js";
import { BUILTIN_AGENTS } from "./select.js";

/** One agent as the catalog lists it: what the task tool offers and `bosun agents` prints. */
export interface CatalogAgent {
  name: string;
  description?: string;
  /** The file that defines it (an agent file, else the bosun.json that sets it), or "built-in". */
  source: string;
  readOnly: boolean;
  model?: string;
  tools?: string[];
}

/** Tool names bosun knows before MCP servers start: a name matching none (nor `mcp__…`) is listed. */
const KNOWN_TOOLS = BOSUN_TOOLS.filter((name) => !name.includes("*"));

function matchesKnown(pattern: string): boolean {
  if (pattern.startsWith("mcp__")) return true;
  const glob = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  return KNOWN_TOOLS.some((name) => glob.test(name));
}

/**
 * Seat `agent.catalog`: every agent there is — built-in, config `agent`, agent files — with where
 * each is defined, the files a file of the same name shadows, what of a foreign file was left out,
 * and tool names no tool of bosun's has (not an error: an MCP server's tools appear later). Pure:
 * the caller records the decision (runtime/set-up.ts, when an agent file was read).
 */
export function agentCatalog(config: LoadedConfig): { agents: CatalogAgent[]; decision: Decision<string[]> } {
  const configured = config.config.agent ?? {};
  const names = [...new Set([...Object.keys(BUILTIN_AGENTS), ...Object.keys(configured)])];
  const files = config.agentFiles;
  const reasons: Reason[] = [];
  const agents = names.map((name): CatalogAgent => {
    const settings = configured[name] ?? {};
    const builtin = Object.hasOwn(BUILTIN_AGENTS, name) ? BUILTIN_AGENTS[name] : undefined;
    // The nearest scope's file defines it; else the config file that sets its first key.
    const file = files.used.filter((used) => used.name === name).at(-1)?.file;
    const origin = Object.keys(settings)
      .map((key) => config.origins.get(`agent.${name}.${key}`))
      .find((o) => o && o.layer !== "default");
    const source = file ?? origin?.file ?? origin?.source ?? "built-in";
    const description = settings.description ?? builtin?.description;
    const agent: CatalogAgent = {
      name,
      ...(description ? { description } : {}),
      source,
      readOnly: builtin?.readOnly === true || settings.read_only === true,
      ...(settings.model ? { model: settings.model } : {}),
      ...(settings.tools ? { tools: settings.tools } : {}),
    };
    reasons.push({ rule: "agent", detail: `${name}${agent.readOnly ? " (read-only)" : ""}`, source });
    const unknown = (settings.tools ?? []).filter((tool) => !matchesKnown(tool));
    if (unknown.length > 0) {
      reasons.push({
        rule: "unknown tools",
        detail: `${name}: ${unknown.join(", ")} — no tool of bosun's has that name (an MCP server's may, once it starts; else it matches nothing)`,
        source,
      });
    }
    return agent;
  });
  reasons.push(...fileReasons(config));
  const fromConfig = names.some((name) => !Object.hasOwn(BUILTIN_AGENTS, name)) || files.used.length > 0;
  const summary: Reason = {
    rule: fromConfig ? "agents defined" : "built-in agents",
    detail: `${names.length} agents: ${names.join(", ")}${files.used.length > 0 ? `; ${files.used.length} from agent files` : ""}`,
    decisive: true,
  };
  return {
    agents,
    decision: {
      seat: "agent.catalog",
      holder: fromConfig ? "config" : "code",
      answer: names,
      reasons: [summary, ...reasons],
    },
  };
}

/** What the agent files say beyond the agents: shadowing, overriding across scopes, what was left out. */
function fileReasons(config: LoadedConfig): Reason[] {
  const { used, shadowed, skippedFiles } = config.agentFiles;
  const reasons: Reason[] = [];
  for (const file of shadowed) {
    reasons.push({
      rule: "shadowed",
      detail: `${file.name}: ${file.file} is shadowed by ${file.by}`,
      source: file.file,
    });
  }
  for (const project of used.filter((file) => file.scope === "project")) {
    const global = used.find((file) => file.scope === "global" && file.name === project.name);
    if (!global) continue;
    reasons.push({
      rule: "overrides",
      detail: `${project.name}: ${project.file} overrides ${global.file} key by key (the global file's rules still apply)`,
      source: project.file,
    });
  }
  for (const file of used) {
    for (const skip of file.skipped) {
      reasons.push({ rule: "left out", detail: `${file.name}: ${skip}`, source: file.file });
    }
  }
  for (const file of skippedFiles) reasons.push({ rule: "skipped file", detail: file.reason, source: file.file });
  return reasons;
}

/** Whether any agent file was read (or skipped): only then is the catalog recorded. */
export function anyAgentFiles(config: LoadedConfig): boolean {
  const { used, shadowed, skippedFiles } = config.agentFiles;
  return used.length + shadowed.length + skippedFiles.length > 0;
}
