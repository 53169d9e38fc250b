import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { ConfigError } from "../errors.js";
import { isMapping, parseFrontMatterLines, splitFrontMatter } from "../util/front-matter.js";
import { AGENT_NAME, type MappedAgent, mapClaude, mapOpencode, type SourcePath } from "./agent-formats.js";

/*
 * Agents defined in markdown files: front matter for the settings, the body for the prompt. Each
 * winning file becomes a config layer of its scope (load.ts), placed below that scope's bosun.json,
 * so `agent.<name>.<key>` there still overrides a file's key, and every reader of config — agent
 * selection, permission layers, origins, the trust check — sees it as config.
 */

export type AgentFileFormat = "bosun" | "opencode" | "claude";
export type AgentScope = "global" | "project";

/** Where agent files are looked for in one folder, lowest rank first: a later one wins a name. */
const PROJECT_DIRS: ReadonlyArray<{ dir: string; format: AgentFileFormat }> = [
  { dir: join(".claude", "agents"), format: "claude" },
  { dir: join(".opencode", "agent"), format: "opencode" },
  { dir: join(".opencode", "agents"), format: "opencode" },
  { dir: join(".bosun", "agents"), format: "bosun" },
];

/** An agent file bigger than this is not read (an agent's prompt is a page or two). */
const MAX_BYTES = 256 * 1024;

export interface AgentFileRef {
  name: string;
  file: string;
  format: AgentFileFormat;
  scope: AgentScope;
}

/** One winning file, as the config layer load.ts adds. */
export interface AgentFileLayer extends AgentFileRef {
  data: { agent: Record<string, Record<string, unknown>> };
  lineOf: (path: readonly (string | number)[]) => number | undefined;
  /** Keys of a foreign file left out, each with why. */
  skipped: string[];
}

export interface AgentFilesReport {
  used: Array<AgentFileRef & { skipped: string[] }>;
  /** Files a file of the same name and scope outranks: `by` is the winner's path. */
  shadowed: Array<AgentFileRef & { by: string }>;
  /** Files not read at all (a foreign file that does not parse, a link out of the repository...). */
  skippedFiles: Array<{ file: string; format: AgentFileFormat; scope: AgentScope; reason: string }>;
}

/** The folders of one scope to read, lowest rank first (the global agents folder; a project's, root first). */
export function agentDirs(
  scope: AgentScope,
  folders: readonly string[],
  home?: string,
): Array<{ dir: string; format: AgentFileFormat; rank: number }> {
  if (scope === "global") return folders.map((dir, rank) => ({ dir, format: "bosun", rank }));
  return folders.flatMap((folder, depth) =>
    PROJECT_DIRS.flatMap(({ dir, format }, i) =>
      // Run from the home folder, `~/.claude/agents` is Claude Code's own user agents, not a
      // project's: only bosun's global folder is read for the user.
      format !== "bosun" && home !== undefined && resolve(folder) === resolve(home)
        ? []
        : [{ dir: join(folder, dir), format, rank: depth * PROJECT_DIRS.length + i }],
    ),
  );
}

/**
 * Reads one scope's agent files. Within a scope a deeper folder beats a shallower one, and in one
 * folder `.bosun/agents` beats `.opencode/agents`, `.opencode/agent` and `.claude/agents`: only the
 * winner of a name becomes a layer, the others are listed as shadowed. bosun's own files are
 * strict (a bad key or value is a ConfigError naming file:line and key, through the schema); a
 * foreign file's bad keys are skipped and listed, and one that cannot be read is skipped whole.
 * A project's file must lie inside the repository (`root`), through links, with no other names.
 */
export function readAgentFiles(
  scope: AgentScope,
  dirs: ReadonlyArray<{ dir: string; format: AgentFileFormat; rank: number }>,
  root?: string,
): { layers: AgentFileLayer[]; report: AgentFilesReport } {
  const report: AgentFilesReport = { used: [], shadowed: [], skippedFiles: [] };
  const candidates: Array<AgentFileLayer & { rank: number }> = [];
  const realRoot = root ? realOrSelf(root) : undefined;
  for (const { dir, format, rank } of dirs) {
    for (const entry of markdownFiles(dir)) {
      const file = join(dir, entry);
      const skip = (reason: string) => {
        if (format === "bosun") throw new ConfigError(`${file}: ${reason}`);
        report.skippedFiles.push({ file, format, scope, reason });
      };
      const unsafe = realRoot ? outsideRoot(file, realRoot) : undefined;
      if (unsafe) {
        // Not a matter of syntax: whatever the format, the file is left out and the run goes on.
        report.skippedFiles.push({ file, format, scope, reason: unsafe });
        continue;
      }
      const parsed = parseAgentFile(file, format, skip);
      if (parsed) candidates.push({ ...parsed, scope, rank });
    }
  }
  const winners = new Map<string, AgentFileLayer & { rank: number }>();
  for (const candidate of candidates) {
    const held = winners.get(candidate.name);
    if (!held || candidate.rank > held.rank) winners.set(candidate.name, candidate);
  }
  for (const candidate of candidates) {
    const winner = winners.get(candidate.name) as AgentFileLayer;
    if (winner === candidate) continue;
    report.shadowed.push({ ...refOf(candidate), by: winner.file });
  }
  const layers = [...winners.values()].map(({ rank: _, ...layer }) => layer);
  for (const layer of layers) report.used.push({ ...refOf(layer), skipped: layer.skipped });
  return { layers, report };
}

function refOf(layer: AgentFileRef): AgentFileRef {
  return { name: layer.name, file: layer.file, format: layer.format, scope: layer.scope };
}

/** The `.md` files of a folder that are files (or links to files), by name; none when it is absent. */
function markdownFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.endsWith(".md") && (entry.isFile() || entry.isSymbolicLink()))
    .map((entry) => entry.name)
    .sort();
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Why a repository's agent file may not be read: its prompt goes to the model, so a link to a file
 * out of the repository (or a hard link, a second name of any file) would hand the model that file.
 */
function outsideRoot(file: string, realRoot: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return "a broken link";
  }
  const rel = relative(realRoot, real);
  if (rel === ".." || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) {
    return `it leads out of the repository (to ${real}): not read`;
  }
  try {
    const stat = statSync(real);
    if (!stat.isFile()) return "not a file";
    if (stat.nlink > 1) return "it has other names (hard links): not read";
  } catch (error) {
    return `cannot read it: ${(error as Error).message}`;
  }
  return undefined;
}

/** One file as its layer, or undefined when it was skipped (`skip` throws for bosun's own files). */
function parseAgentFile(
  file: string,
  format: AgentFileFormat,
  skip: (reason: string) => void,
): Omit<AgentFileLayer, "scope"> | undefined {
  const base = file.slice(file.lastIndexOf(sep) + 1, -".md".length);
  let text: string;
  try {
    if (statSync(file).size > MAX_BYTES) return void skip(`an agent file is at most ${MAX_BYTES / 1024} KB`);
    text = readFileSync(file, "utf8");
  } catch (error) {
    return void skip(`cannot read agent file: ${(error as Error).message}`);
  }
  const split = splitFrontMatter(text);
  if (!split.ok) return void skip(split.reason);
  const parsed = split.present
    ? parseFrontMatterLines(split.frontMatter)
    : { ok: true as const, data: {}, lineOf: () => undefined };
  if (!parsed.ok) return void skip(parsed.reason);
  const data = parsed.data ?? {};
  if (!isMapping(data)) return void skip("front matter must be key: value lines");
  let mapped: MappedAgent;
  if (format === "bosun") mapped = bosunEntry(file, base, data, parsed.lineOf);
  else if (format === "claude") mapped = mapClaude(data);
  else {
    const result = mapOpencode(data);
    if ("disabled" in result) return void skip("disable: true — opencode does not offer it, nor does bosun");
    mapped = result;
  }
  const name = mapped.name ?? base;
  if (!AGENT_NAME.test(name)) return void skip(`"${base}" is not an agent name (letters, digits, - and _)`);
  const entry: Record<string, unknown> = { ...mapped.entry };
  if (split.body !== "") entry.prompt = split.body;
  const bodyLine = split.present ? bodyStart(text, split.frontMatter) : 1;
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    if (path[0] !== "agent" || path[1] !== name) return undefined;
    const [key, ...rest] = path.slice(2);
    if (key === undefined) return 1;
    if (key === "prompt") return bodyLine;
    const source: SourcePath | undefined =
      key === "permission" && rest.length > 0 && mapped.from.has(`permission.${rest[0]}`)
        ? [...(mapped.from.get(`permission.${rest[0]}`) as SourcePath), ...rest.slice(1)]
        : mapped.from.has(String(key))
          ? [...(mapped.from.get(String(key)) as SourcePath), ...rest]
          : undefined;
    return source ? parsed.lineOf(source) : undefined;
  };
  return { name, file, format, data: { agent: { [name]: entry } }, lineOf, skipped: mapped.skipped };
}

/** bosun's own file: its front matter is `agent.<name>` itself, checked by the schema (load.ts). */
function bosunEntry(
  file: string,
  base: string,
  data: Record<string, unknown>,
  lineOf: (path: SourcePath) => number | undefined,
): MappedAgent {
  const at = (key: string) => `${file}${lineOf([key]) ? `:${lineOf([key])}` : ""}`;
  if (!AGENT_NAME.test(base)) {
    throw new ConfigError(`${file}: "${base}" is not an agent name (letters, digits, - and _); rename the file`);
  }
  if ("prompt" in data) {
    throw new ConfigError(`${at("prompt")}: key "prompt": an agent file's prompt is its body, after the front matter`);
  }
  const { name, ...entry } = data;
  if (name !== undefined && name !== base) {
    throw new ConfigError(
      `${at("name")}: key "name": ${JSON.stringify(name)} is not the file's name "${base}"; an agent is named by its file`,
    );
  }
  const from = new Map<string, SourcePath>(Object.keys(entry).map((key) => [key, [key]]));
  return { entry, from, skipped: [] };
}

/** The line the body starts on: after the closing `---` and any blank lines. */
function bodyStart(text: string, frontMatter: string): number {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let line = (frontMatter === "" ? 0 : frontMatter.split("\n").length) + 2;
  while (line < lines.length && (lines[line] ?? "").trim() === "") line++;
  return line + 1;
}
