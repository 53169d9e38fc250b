import { formatKey, isPlainObject } from "../../config/keypath.js";
import { ACTIONS, type Action } from "../../contracts/requests.js";
import { ConfigError, UsageError } from "../../errors.js";
import { closest } from "../../util/closest.js";
import { normalizePathPattern } from "./match.js";
import { isAction, isPathAction, PathResolutionError, resolveRequestPath } from "./requests.js";

export const EFFECTS = ["allow", "ask", "deny"] as const;
export type Effect = (typeof EFFECTS)[number];

/**
 * Rule layers, lowest first: a later layer's matching rule beats an earlier one's. `env` is the
 * config that BOSUN_CONFIG and BOSUN_CONFIG_CONTENT add; `session` the run's flags (`--allow`).
 * `saved` holds the person's "always" approvals; they may turn an ask into an allow, never lift
 * a configured deny or a configured ask (evaluate.ts). `policy` is not in this order: it is
 * evaluated apart, last, deny-only.
 */
export const LAYERS = ["default", "mode", "global", "project", "env", "agent", "session", "saved"] as const;

/** Layers a person or their config wrote: an ask or deny from one of these is never lifted by a saved approval. */
export const CONFIGURED_LAYERS: ReadonlySet<Layer> = new Set<Layer>(["global", "project", "env", "agent", "session"]);
export type OrderedLayer = (typeof LAYERS)[number];
export type Layer = OrderedLayer | "policy";

export interface RuleSource {
  layer: Layer;
  /** A config file, or the label of where the rule came from (`BOSUN_CONFIG_CONTENT`). */
  file?: string;
  line?: number;
  /** The key as printed (`permission.shell["git push*"]`), or the flag that made the rule. */
  key: string;
  /** Written in a repository's own bosun.json (its `permission` or an agent's), whoever wrote it. */
  repository?: true;
  /**
   * A rule of a repository nobody trusted (seat project.trust): it may only tighten. Its file's
   * answer for a request applies only when it is at least as strict as the layers below it
   * decide; a looser one is left out (evaluate.ts).
   */
  tightenOnly?: true;
}

export interface Rule {
  action: Action;
  pattern: string;
  effect: Effect;
  source: RuleSource;
  /** Matches only requests proven read-only (mode presets: "read-only shell commands run"). */
  when?: "read-only";
}

/** Where a `permission` object came from, so each rule can name its file, line and key. */
export interface ConfigSource {
  layer: Layer;
  file?: string;
  /** A repository's own file: its rules are marked (and, untrusted, may only tighten). */
  repository?: { trusted: boolean };
  /** Where the permission object sits in its document; default `["permission"]`. */
  keyPath?: readonly string[];
  /** The line of a key path in the document (ParsedDocument.lineOf). */
  lineOf?: (path: readonly (string | number)[]) => number | undefined;
}

export function isEffect(value: unknown): value is Effect {
  return typeof value === "string" && (EFFECTS as readonly string[]).includes(value);
}

/** Position of a layer in the order; policy comes after every other. */
export function layerRank(layer: Layer): number {
  return layer === "policy" ? LAYERS.length : LAYERS.indexOf(layer);
}

/**
 * One config layer's `permission` object as rules, in document order. An action maps either to
 * an effect (a rule with pattern `*`) or to an object of pattern → effect, e.g.
 * `{ "edit": "ask", "shell": { "git status *": "allow", "*": "ask" } }`. `undefined` gives no
 * rules. Throws ConfigError naming the file, line and key of the first bad entry: an unknown
 * action, an effect other than allow/ask/deny, an empty pattern, a bare-number pattern (JSON
 * objects move number keys to the front, so its place in the order would be lost), a path
 * pattern with a `..` segment (it could never match a resolved path), or, in the policy layer,
 * anything but deny.
 */
export function rulesFromConfig(value: unknown, source: ConfigSource): Rule[] {
  if (value === undefined) return [];
  const base = source.keyPath ?? ["permission"];
  const fail = (path: readonly string[], message: string): never => {
    const line = source.lineOf?.(path);
    const where = source.file ?? `${source.layer} rules`;
    throw new ConfigError(`${line ? `${where}:${line}` : where}: key "${formatKey(path)}": ${message}`);
  };
  if (!isPlainObject(value)) {
    fail(base, `expected an object mapping actions to rules, received ${describe(value)}`);
  }
  const rules: Rule[] = [];
  const add = (action: Action, pattern: string, effect: unknown, path: readonly string[]) => {
    if (!isEffect(effect)) fail(path, `expected "allow", "ask" or "deny", received ${describe(effect)}`);
    if (source.layer === "policy" && effect !== "deny") {
      fail(path, `policy rules may only deny (received "${String(effect)}"); policy never grants`);
    }
    const line = source.lineOf?.(path);
    rules.push({
      action,
      pattern,
      effect: effect as Effect,
      source: {
        layer: source.layer,
        ...(source.file ? { file: source.file } : {}),
        ...(line ? { line } : {}),
        key: formatKey(path),
        ...(source.repository ? { repository: true as const } : {}),
        ...(source.repository && !source.repository.trusted ? { tightenOnly: true as const } : {}),
      },
    });
  };
  for (const [action, entry] of Object.entries(value as Record<string, unknown>)) {
    const path = [...base, action];
    if (!isAction(action)) {
      const [suggestion] = closest(action, ACTIONS, 1);
      fail(
        path,
        `unknown action "${action}"${suggestion ? ` — did you mean "${suggestion}"?` : ""} (actions: ${ACTIONS.join(", ")})`,
      );
      continue;
    }
    if (typeof entry === "string") {
      add(action, "*", entry, path);
      continue;
    }
    if (!isPlainObject(entry)) {
      fail(path, `expected "allow", "ask", "deny" or an object of pattern → effect, received ${describe(entry)}`);
    }
    const patterns = Object.entries(entry as Record<string, unknown>);
    for (const [pattern, effect] of patterns) {
      const problem = patternProblem(action, pattern);
      if (problem) fail([...path, pattern], problem);
      add(action, pattern, effect, [...path, pattern]);
    }
    // The last match wins, so a catch-all after other patterns silences them: a deny written
    // before it would do nothing. That is a mistake in the config, not a rule to keep.
    const catchAll = patterns.map(([pattern]) => isCatchAll(action, pattern)).lastIndexOf(true);
    if (catchAll > 0) {
      const [dead] = patterns[0] as [string, unknown];
      const [all] = patterns[catchAll] as [string, unknown];
      const allLine = source.lineOf?.([...path, all]);
      fail(
        [...path, dead],
        `pattern "${dead}" can never decide: the later "${all}"${allLine ? ` (line ${allLine})` : ""} matches everything, and the LAST matching pattern wins. Put "${all}" first, then the exceptions`,
      );
    }
  }
  return rules;
}

/**
 * A rule written as `action` or `action:pattern`, as flags (`--allow 'shell:npm test'`) and
 * saved approvals spell it. A bare action means pattern `*`. Throws UsageError on a bad spec.
 */
export function ruleFromSpec(spec: string, effect: Effect, source: Omit<RuleSource, "key"> & { key?: string }): Rule {
  const colon = spec.indexOf(":");
  const action = colon < 0 ? spec : spec.slice(0, colon);
  const pattern = colon < 0 ? "*" : spec.slice(colon + 1);
  const key = source.key ?? spec;
  if (!isAction(action)) {
    const [suggestion] = closest(action, ACTIONS, 1);
    throw new UsageError(
      `${key}: unknown action "${action}"${suggestion ? ` — did you mean "${suggestion}"?` : ""}; write action:pattern, e.g. shell:npm test (actions: ${ACTIONS.join(", ")})`,
    );
  }
  const problem = patternProblem(action, pattern);
  if (problem) throw new UsageError(`${key}: ${problem}`);
  if (source.layer === "policy" && effect !== "deny") throw new UsageError(`${key}: policy rules may only deny`);
  return { action, pattern, effect, source: { ...source, key } };
}

/** A pattern that matches every resource of its action. */
export function isCatchAll(action: Action, pattern: string): boolean {
  return pattern === "*" || (isPathAction(action) && (pattern === "**" || pattern === "/**"));
}

function patternProblem(action: Action, pattern: string): string | undefined {
  if (pattern.trim() === "") return 'a pattern may not be empty (use "*" for everything)';
  if (/^(0|[1-9]\d*)$/.test(pattern)) {
    return `pattern "${pattern}" is a bare number: JSON objects move number keys to the front, so its place in the rule order would be lost`;
  }
  if (isPathAction(action) && pattern.split("/").includes("..")) {
    return `path pattern "${pattern}" has a ".." segment and could never match a resolved path; write the folder as an absolute path or with ~/`;
  }
  return undefined;
}

/**
 * Path rules whose pattern names a folder through a symlink also get a twin rule with the
 * folder resolved, right after the original, same effect and source: request paths are
 * resolved (`resolveRequestPath`), so `/etc/**` must also match where `/etc` really is (on
 * macOS, `/private/etc`), and a workspace `vendor/**` where `vendor` links elsewhere. Only the
 * literal folders before the first glob character are resolved. Reads the disk: call once
 * when the layers are built, not per evaluation. Rules of other actions pass unchanged.
 */
export function resolveRulePatterns(rules: readonly Rule[], where: { workspace: string; home: string }): Rule[] {
  const out: Rule[] = [];
  for (const rule of rules) {
    out.push(rule);
    if (!isPathAction(rule.action) || rule.pattern === "*") continue;
    const twin = resolvedPattern(rule.pattern, where);
    if (twin !== undefined) out.push({ ...rule, pattern: twin });
  }
  return out;
}

function resolvedPattern(pattern: string, where: { workspace: string; home: string }): string | undefined {
  const glob = normalizePathPattern(pattern, where.home);
  const segments = glob.split("/");
  const firstGlob = segments.findIndex((s) => /[*?[{\\]/.test(s));
  const literal = (firstGlob < 0 ? segments : segments.slice(0, firstGlob)).join("/");
  const rest = firstGlob < 0 ? "" : segments.slice(firstGlob).join("/");
  if (literal === "" || (literal === "/" && rest !== "")) return undefined;
  const absolute = glob.startsWith("/") ? literal : `${where.workspace.replace(/\/+$/, "")}/${literal}`;
  let resolved: string;
  try {
    resolved = resolveRequestPath(absolute, "/");
  } catch (error) {
    if (error instanceof PathResolutionError) return undefined;
    throw error;
  }
  if (resolved === absolute.replace(/\/+$/, "")) return undefined;
  const escaped = resolved.replace(/[*?[\]{}\\]/g, "\\$&");
  return rest === "" ? escaped : `${escaped === "/" ? "" : escaped}/${rest}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}
