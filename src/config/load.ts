import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../errors.js";
import { findRepoRoot, foldersBetween } from "../util/repo.js";
import { isWithheld } from "../util/withheld-env.js";
import { type AgentFileLayer, type AgentFilesReport, agentDirs, readAgentFiles } from "./agent-files.js";
import { claudeSettingsLayers } from "./claude-settings.js";
import { DEFAULTS, type ResolvedConfig } from "./defaults.js";
import { parseJsonc } from "./jsonc.js";
import { deleteAt, formatKey, getAt, isPlainObject, parseKey } from "./keypath.js";
import { mcpJsonPath, translateMcpJson } from "./mcp-json.js";
import { leafPaths, mergeInto } from "./merge.js";
import { expandModelForm } from "./model-form.js";
import { globalConfigFile } from "./paths.js";
import {
  type ReferenceRules,
  repositoryEnvRule,
  repositoryKeyRule,
  resolveReferences,
  type Substitution,
} from "./references.js";
import { type Config, ENV_KEYS } from "./schema.js";
import { type LayerSource, validateLayer } from "./validate.js";

/** The layers, lowest first. A higher layer overrides a lower one key by key. */
export const LAYER_ORDER = [
  "default",
  "global",
  "project",
  "BOSUN_CONFIG",
  "BOSUN_CONFIG_CONTENT",
  "env",
  "flag",
] as const;
export type LayerName = (typeof LAYER_ORDER)[number];

/** The defaults table as a layer: what provenance says of a value no file, variable or flag set. */
const DEFAULT_LAYER = { layer: "default", source: "built-in" } as const;

/** Where one resolved value came from. */
export interface Origin {
  layer: LayerName;
  /** A file path, an environment variable name, or a flag. */
  source: string;
  file?: string;
  line?: number;
  key: string;
  /** The value as written, when it held `{env:}`/`{file:}` references: what gets printed. */
  raw?: unknown;
}

export interface LayerReport {
  layer: LayerName;
  source: string;
  status: "read" | "absent";
  /** A foreign file's parts not read, each with why (Claude Code's settings: config/claude-settings.ts). */
  skipped?: string[];
}

export interface UnresolvedReference {
  key: string;
  source: string;
  line?: number;
  raw: unknown;
  reason: string;
}

/** A reference that was resolved: which key read which variable or file. Never the value. */
export interface ResolvedReference {
  key: string;
  source: string;
  line?: number;
  raw: unknown;
}

/** A value given on the command line, e.g. `--model x` sets `model`. */
export interface FlagValue {
  flag: string;
  path: string[];
  value: unknown;
}

export interface LoadOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  flags?: FlagValue[];
  /**
   * Applied to each project file's content before it is merged: how a run leaves out what an
   * untrusted repository's bosun.json would loosen (permission/trust/project-trust.ts).
   */
  filterProject?: (data: unknown) => unknown;
  /**
   * Reads a `{file:}` reference of a layer through the run's read rules (permission/gate/read-check.ts),
   * or says why not; without it (before the rules exist) files are read as they are.
   */
  readReference?: (path: string, where: { layer: LayerName; key: readonly string[] }) => ReferenceRead;
}

export type ReferenceRead = { value: string } | { refused: string };

export interface LoadedConfig {
  /** Every layer merged; a key of the defaults table always holds a value (read it as it is). */
  config: ResolvedConfig;
  origins: Map<string, Origin>;
  layers: LayerReport[];
  unresolved: UnresolvedReference[];
  references: ResolvedReference[];
  /** Values a higher layer replaced, lowest first: what a decision can list as outranked. */
  shadowed: Map<string, ShadowedValue[]>;
  /**
   * Every layer as it was read (references resolved, validated), lowest first. For keys whose
   * layers must not be merged into one value: permission rules keep each layer's order and
   * origin, and every layer's hooks run.
   */
  documents: ConfigDocument[];
  /** The agent files read (config/agent-files.ts): which became layers, which were shadowed or skipped. */
  agentFiles: AgentFilesReport;
  /** The repository's `.mcp.json` (Claude Code's), when there is one: what of it was left out, and why. */
  mcpJson?: McpJsonReport;
}

export interface McpJsonReport {
  file: string;
  /** The `mcp.<name>` servers it adds. */
  servers: string[];
  skipped: Array<{ key: string; reason: string }>;
}

/** One layer's validated content, with where each key of it stands. */
export interface ConfigDocument {
  layer: LayerName;
  source: string;
  file?: string;
  data: Config;
  /** The layer as written (references unresolved), after filterProject: what the trust check reads. */
  written: unknown;
  lineOf?: (path: readonly (string | number)[]) => number | undefined;
  /** Set when the layer is an agent file (config/agent-files.ts), not a bosun.json. */
  agentFile?: { name: string; format: AgentFileLayer["format"] };
}

export interface ShadowedValue {
  value: unknown;
  origin: Origin;
}

interface RawLayer {
  layer: LayerName;
  source: string;
  file?: string;
  data: unknown;
  lineOf?: LayerSource["lineOf"];
  baseDir: string;
  /** `{file:}` references of this layer must stay inside this folder. */
  fileRoot?: string;
  sourceOfKey?: (key: string) => string;
  /** An agent file: its text is taken as written (no `{env:}`/`{file:}` references in markdown). */
  agentFile?: ConfigDocument["agentFile"];
}

/** Where a key's value was set, as `file:line` (or the layer's source); undefined when no layer set it. */
export function whereSet(config: Pick<LoadedConfig, "origins">, key: string): string | undefined {
  const origin = config.origins.get(key);
  return origin ? `${origin.file ?? origin.source}${origin.line ? `:${origin.line}` : ""}` : undefined;
}

/**
 * Reads every layer, resolves references, validates each layer on its own (so an error names
 * the file it is in) and merges them. Throws ConfigError on any bad input; never writes.
 */
export function loadConfig(options: LoadOptions): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd);
  const layers: LayerReport[] = [];
  const raw: RawLayer[] = [{ ...DEFAULT_LAYER, data: DEFAULTS, baseDir: cwd }];
  layers.push({ ...DEFAULT_LAYER, status: "read" });

  const readFileLayer = (layer: LayerName, file: string, required: boolean, fileRoot?: string) => {
    if (!existsSync(file)) {
      if (required) throw new ConfigError(`${layer} points to ${file}, which does not exist`);
      layers.push({ layer, source: file, status: "absent" });
      return;
    }
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(`${file}: cannot read config: ${(error as Error).message}`);
    }
    const doc = expandModelForm(parseJsonc(text, file), file);
    layers.push({ layer, source: file, status: "read" });
    raw.push({
      layer,
      source: file,
      file,
      data: layer === "project" && options.filterProject ? options.filterProject(doc.data) : doc.data,
      lineOf: doc.lineOf,
      baseDir: dirname(file),
      ...(fileRoot ? { fileRoot } : {}),
    });
  };

  const agentFiles: AgentFilesReport = { used: [], shadowed: [], skippedFiles: [] };
  // A scope's agent files come before its bosun.json: `agent.<name>.<key>` there overrides a file's key.
  const readAgentLayers = (scope: "global" | "project", folders: string[], root?: string) => {
    const read = readAgentFiles(scope, agentDirs(scope, folders, env.HOME ?? homedir()), root);
    for (const part of ["used", "shadowed", "skippedFiles"] as const) {
      (agentFiles[part] as unknown[]).push(...read.report[part]);
    }
    for (const file of read.layers) {
      layers.push({ layer: scope, source: file.file, status: "read" });
      raw.push({
        layer: scope,
        source: file.file,
        file: file.file,
        data: scope === "project" && options.filterProject ? options.filterProject(file.data) : file.data,
        lineOf: file.lineOf,
        baseDir: dirname(file.file),
        agentFile: { name: file.name, format: file.format },
      });
    }
  };

  readAgentLayers("global", [join(dirname(globalConfigFile(env)), "agents")]);
  readFileLayer("global", globalConfigFile(env), false);

  // A project's config comes with the repository, whoever wrote it: its {file:} references may
  // read only inside the repository.
  const repoRoot = findRepoRoot(cwd);
  const projectFolders = repoRoot ? foldersBetween(repoRoot, cwd) : [cwd];
  readAgentLayers("project", projectFolders, repoRoot ?? cwd);
  const mcpJson = readMcpJson(join(repoRoot ?? cwd, ".mcp.json"), env, repoRoot ?? cwd, options.filterProject);
  if (mcpJson) {
    layers.push({ layer: "project", source: mcpJson.report.file, status: "read" });
    if (mcpJson.layer) raw.push(mcpJson.layer);
  }
  for (const folder of projectFolders) {
    // Claude Code's project settings, below the folder's bosun.json: only their hooks (claude-settings.ts).
    for (const read of claudeSettingsLayers(folder, env.HOME ?? homedir(), options.filterProject)) {
      layers.push(read.report);
      raw.push(read.layer);
    }
    readFileLayer("project", join(folder, "bosun.json"), false, repoRoot ?? cwd);
  }

  if (env.BOSUN_CONFIG) readFileLayer("BOSUN_CONFIG", resolve(cwd, env.BOSUN_CONFIG), true);

  if (env.BOSUN_CONFIG_CONTENT) {
    const doc = expandModelForm(parseJsonc(env.BOSUN_CONFIG_CONTENT, "BOSUN_CONFIG_CONTENT"), "BOSUN_CONFIG_CONTENT");
    layers.push({ layer: "BOSUN_CONFIG_CONTENT", source: "BOSUN_CONFIG_CONTENT", status: "read" });
    raw.push({
      layer: "BOSUN_CONFIG_CONTENT",
      source: "BOSUN_CONFIG_CONTENT",
      data: doc.data,
      lineOf: doc.lineOf,
      baseDir: cwd,
    });
  }

  for (const { variable, path, kind } of ENV_KEYS) {
    const text = env[variable];
    if (text === undefined || text === "") continue;
    let value: unknown = text;
    if (kind === "integer") {
      if (!/^-?\d+$/.test(text.trim())) {
        throw new ConfigError(`${variable}: key "${formatKey(path)}": expected an integer, received "${text}"`);
      }
      value = Number(text.trim());
    }
    layers.push({ layer: "env", source: variable, status: "read" });
    raw.push({ layer: "env", source: variable, data: nest(path, value), baseDir: cwd });
  }

  for (const flag of options.flags ?? []) {
    if (flag.value === undefined) continue;
    layers.push({ layer: "flag", source: flag.flag, status: "read" });
    raw.push({ layer: "flag", source: flag.flag, data: nest(flag.path, flag.value), baseDir: cwd });
  }

  return {
    ...mergeLayers(raw, layers, env, options.readReference),
    agentFiles,
    ...(mcpJson ? { mcpJson: mcpJson.report } : {}),
  };
}

/**
 * The repository's `.mcp.json` as a project layer below its bosun.json (mcp-json.ts): the same
 * trust filter and reference rules as any project file. A file that does not parse is reported,
 * not fatal: it was written for another tool.
 */
function readMcpJson(
  file: string,
  env: NodeJS.ProcessEnv,
  fileRoot: string,
  filterProject: LoadOptions["filterProject"],
): { report: McpJsonReport; layer?: RawLayer } | undefined {
  if (!existsSync(file)) return undefined;
  let doc: ReturnType<typeof parseJsonc>;
  try {
    doc = parseJsonc(readFileSync(file, "utf8"), file);
  } catch (error) {
    return { report: { file, servers: [], skipped: [{ key: "", reason: (error as Error).message }] } };
  }
  const translated = translateMcpJson(doc.data, env);
  const report = { file, servers: Object.keys(translated.data.mcp ?? {}), skipped: translated.skipped };
  if (report.servers.length === 0) return { report };
  const data = filterProject ? filterProject(translated.data) : translated.data;
  const lineOf = (path: readonly (string | number)[]) => doc.lineOf(mcpJsonPath(path));
  return { report, layer: { layer: "project", source: file, file, data, lineOf, baseDir: dirname(file), fileRoot } };
}

/**
 * How each layer's references are read (references.ts says the rule). A repository's config: files
 * only inside the repository, and no variable bosun withholds from its tools — nor any your own
 * config reads by `{env:}`, which may hold a key under any name — outside credential keys.
 */
function referenceRules(
  layer: RawLayer,
  rawLayers: readonly RawLayer[],
  readReference: LoadOptions["readReference"],
): ReferenceRules {
  const rules: ReferenceRules = {
    ...(layer.fileRoot ? { fileRoot: layer.fileRoot } : {}),
    ...(readReference ? { readFile: (path, key) => readReference(path, { layer: layer.layer, key }) } : {}),
  };
  if (layer.layer !== "project") return rules;
  const yours = new Set(["BOSUN_CONFIG_CONTENT"]);
  for (const other of rawLayers) {
    if (other.layer === "project" || other.layer === "default") continue;
    for (const match of JSON.stringify(other.data ?? null).matchAll(/\{env:\s*([^{}\s]+)\s*\}/g)) {
      yours.add(match[1] as string);
    }
  }
  return {
    ...rules,
    envRefusal: repositoryEnvRule((name) => isWithheld(name) || yours.has(name)),
    keyRefusal: repositoryKeyRule,
  };
}

function mergeLayers(
  rawLayers: RawLayer[],
  layers: LayerReport[],
  env: NodeJS.ProcessEnv,
  readReference?: LoadOptions["readReference"],
): Omit<LoadedConfig, "agentFiles"> {
  const merged: Record<string, unknown> = {};
  const origins = new Map<string, Origin>();
  const shadowed = new Map<string, ShadowedValue[]>();
  const unresolved: UnresolvedReference[] = [];
  const references: ResolvedReference[] = [];
  const documents: ConfigDocument[] = [];

  for (const layer of rawLayers) {
    if (!isPlainObject(layer.data)) {
      throw new ConfigError(`${layer.source}: config must be a JSON object, not ${describeTop(layer.data)}`);
    }
    const resolved = layer.agentFile
      ? { data: layer.data, substitutions: new Map<string, Substitution>() }
      : resolveReferences(layer.data, layer.baseDir, env, referenceRules(layer, rawLayers, readReference));
    const { substitutions } = resolved;
    const broken = brokenServers(substitutions);
    const data = withoutServers(resolved.data, broken);
    const valid = validateLayer(
      data,
      { label: layer.source, ...(layer.lineOf ? { lineOf: layer.lineOf } : {}) },
      layer.data,
    );
    documents.push({
      layer: layer.layer,
      source: layer.source,
      ...(layer.file ? { file: layer.file } : {}),
      data: valid,
      written: layer.data,
      ...(layer.lineOf ? { lineOf: layer.lineOf } : {}),
      ...(layer.agentFile ? { agentFile: layer.agentFile } : {}),
    });
    if (broken.size > 0) {
      // Not run with a part of its command missing, nor as a lower layer wrote it. One pass over
      // the origins for all of them: a layer may break many servers.
      for (const server of broken) deleteAt(merged, ["mcp", server]);
      for (const known of [...origins.keys()]) {
        const end = known.startsWith("mcp.") ? known.indexOf(".", 4) : -1;
        if (end > 4 && broken.has(known.slice(4, end))) origins.delete(known);
      }
    }
    for (const [key, sub] of substitutions) {
      const path = parseKey(key);
      const line = layer.lineOf?.(path);
      const where = { key, source: layer.source, raw: sub.raw, ...(line ? { line } : {}) };
      if (!sub.unresolved) {
        references.push(where);
        continue;
      }
      const server = serverOf(path);
      if (server && broken.has(server)) {
        unresolved.push({ ...where, reason: `${sub.unresolved}; the MCP server ${server} is left out` });
        continue;
      }
      unresolved.push({ ...where, reason: sub.unresolved });
      // The layer meant to set this key and could not: a lower layer's value must not show through.
      const previous = origins.get(key);
      const replaced = getAt(merged, path);
      if (previous && replaced !== undefined) {
        shadowed.set(key, [...(shadowed.get(key) ?? []), { value: replaced, origin: previous }]);
      }
      deleteAt(merged, path);
      origins.delete(key);
    }
    mergeInto(merged, data as Record<string, unknown>, (key, path, replaced) => {
      const previous = origins.get(key);
      if (previous && replaced !== undefined) {
        shadowed.set(key, [...(shadowed.get(key) ?? []), { value: replaced, origin: previous }]);
      }
      origins.set(key, originOf(layer, key, path, substitutions.get(key)));
    });
  }

  restoreDefaults(merged, origins, shadowed);
  // Each layer passed on its own; the merged whole is checked too, so no combination slips by.
  // The defaults layer came first and restoreDefaults refilled what a reference unset: every
  // defaulted key holds a value, which is what ResolvedConfig says.
  const config = validateLayer(merged, { label: "merged config" }) as ResolvedConfig;
  return { config, origins, layers, unresolved, references, shadowed, documents };
}

/**
 * A defaulted key that a layer's unresolved reference left unset falls back to its default (what
 * every reader did before the resolved config held it): the layer meant to set the key and could
 * not, so what lower layers wrote stays outranked, but the key is never without a value.
 */
function restoreDefaults(
  merged: Record<string, unknown>,
  origins: Map<string, Origin>,
  shadowed: Map<string, ShadowedValue[]>,
): void {
  for (const path of leafPaths(DEFAULTS)) {
    if (getAt(merged, path) !== undefined) continue;
    let parent = merged;
    for (const segment of path.slice(0, -1)) {
      if (!isPlainObject(parent[segment])) parent[segment] = {};
      parent = parent[segment] as Record<string, unknown>;
    }
    parent[path[path.length - 1] as string] = getAt(DEFAULTS, path);
    const key = formatKey(path);
    origins.set(key, { ...DEFAULT_LAYER, key });
    // The default is in force again: it outranks nothing, and is outranked by nothing below it.
    const outranked = (shadowed.get(key) ?? []).filter((value) => value.origin.layer !== "default");
    if (outranked.length > 0) shadowed.set(key, outranked);
    else shadowed.delete(key);
  }
}

/**
 * `mcp.<name>.command`, `.args`, `.url` or a header: the server's name. Without one of them the
 * server would be started, or reached, as nobody wrote it (a header missing: unauthenticated).
 */
function serverOf(path: readonly string[]): string | undefined {
  if (path[0] !== "mcp") return undefined;
  if (path.length === 3 && (path[2] === "command" || path[2] === "args" || path[2] === "url")) return path[1];
  return path.length === 4 && path[2] === "headers" ? path[1] : undefined;
}

/** MCP servers of a layer whose command or args did not resolve: left out whole. */
function brokenServers(substitutions: ReadonlyMap<string, Substitution>): Set<string> {
  const names = new Set<string>();
  for (const [key, sub] of substitutions) {
    const server = sub.unresolved ? serverOf(parseKey(key)) : undefined;
    if (server) names.add(server);
  }
  return names;
}

function withoutServers(data: unknown, names: ReadonlySet<string>): unknown {
  if (names.size === 0 || !isPlainObject(data) || !isPlainObject(data.mcp)) return data;
  const mcp = Object.fromEntries(Object.entries(data.mcp).filter(([name]) => !names.has(name)));
  return { ...data, mcp };
}

function originOf(layer: RawLayer, key: string, path: string[], substitution: Substitution | undefined): Origin {
  // Assigned, not spread: one of these is made for every key of every layer.
  const origin: Origin = { layer: layer.layer, source: layer.source, key };
  if (layer.file) origin.file = layer.file;
  const line = layer.lineOf?.(path);
  if (line) origin.line = line;
  if (substitution) origin.raw = substitution.raw;
  return origin;
}

function nest(path: readonly string[], value: unknown): Record<string, unknown> {
  let out: unknown = value;
  for (const segment of [...path].reverse()) out = { [segment]: out };
  return out as Record<string, unknown>;
}

function describeTop(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (value === undefined) return "empty";
  return `a ${typeof value}`;
}
