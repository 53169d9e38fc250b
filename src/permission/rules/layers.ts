import { homedir } from "node:os";
import type { ConfigDocument, LayerName, LoadedConfig } from "../../config/load.js";
import type { Agent } from "../../contracts/agent.js";
import type { Holder } from "../../contracts/decisions.js";
import type { ModeName } from "../../contracts/modes.js";
import { uniqueBy } from "../../util/unique.js";
import type { AuthorityContext } from "../gate/authorize.js";
import { defaultRules } from "./defaults.js";
import { type Authority, mapRuleSets, ruleSetsOf } from "./intersect.js";
import { MODES } from "./modes.js";
import { type Effect, type Layer, type Rule, resolveRulePatterns, ruleFromSpec, rulesFromConfig } from "./rules.js";

/** Rules the person gave for this run: `--allow`, `--ask`, `--deny` (each repeatable, `action:pattern`). */
export interface SessionRuleFlags {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

export interface AuthorityInputs {
  config: LoadedConfig;
  agent: Agent;
  mode: { name: ModeName; holder: Holder; source?: string };
  flags?: SessionRuleFlags;
  /** The person's saved "always" approvals for this project (layer `saved`). */
  saved?: Rule[];
  cwd: string;
  /** Absolute and resolved through symlinks. */
  workspace: string;
  home?: string;
  /**
   * Folders outside the workspace that bosun itself sends the model to (this session's files
   * holding the full text of cut tool results): being outside asks nothing there. Reading still
   * follows the read rules; writing there is refused (ownData).
   */
  ownFolders?: string[];
  /** bosun's own data folder: no tool may edit in it. */
  ownData?: string;
  /** bosun's own config folder (the person's bosun.json, agents, recipes): no tool may edit in it. */
  ownConfig?: string;
  /**
   * Whether the person trusts the repository's own bosun.json (seat project.trust). Untrusted, its
   * rules — `permission` and its agents' — may only tighten (evaluate.ts); trusted, they count as
   * any other layer's.
   */
  projectTrusted?: boolean;
}

/** Config layers whose `permission` keys become rule layers; the others cannot hold rules. */
const RULE_LAYER: Partial<Record<LayerName, Layer>> = {
  global: "global",
  project: "project",
  BOSUN_CONFIG: "env",
  BOSUN_CONFIG_CONTENT: "env",
};

/**
 * The rule layers a run is judged against, lowest first: built-in defaults, the mode's preset,
 * each config file's `permission` (global, project, BOSUN_CONFIG, BOSUN_CONFIG_CONTENT) in its own
 * order, the agent's `permission` from every layer, the session's flags, the saved approvals.
 * Layers are read from each config document, not from the merged config: merging would lose the
 * order of patterns and which file each rule came from. Throws ConfigError (file, line, key) for a
 * bad rule and UsageError for a bad flag, before anything runs.
 */
export function buildAuthority(inputs: AuthorityInputs): AuthorityContext {
  const home = inputs.home ?? homedir();
  const { documents } = inputs.config;
  const trusted = inputs.projectTrusted === true;
  const configLayers = documents.flatMap((doc) => {
    const layer = RULE_LAYER[doc.layer];
    return layer ? [rulesOf(doc, layer, doc.data.permission, ["permission"], trusted)] : [];
  });
  const agentRules = documents.flatMap((doc) => {
    const value = doc.data.agent?.[inputs.agent.name]?.permission;
    return value ? [rulesOf(doc, "agent", value, ["agent", inputs.agent.name, "permission"], trusted)] : [];
  });
  const own: Rule[] = (inputs.ownFolders ?? []).map(ownFolderRule);
  const layers: Rule[][] = [
    [...defaultRules(), ...own],
    MODES[inputs.mode.name].preset,
    ...configLayers,
    ...agentRules,
    sessionRules(inputs.flags ?? {}),
    inputs.saved ?? [],
  ].map((rules) => resolveRulePatterns(rules, { workspace: inputs.workspace, home }));
  return {
    rules: layers,
    mode: inputs.mode,
    ...(inputs.agent.readOnly ? { readOnly: { agent: inputs.agent.name, ...inputs.agent.readOnly } } : {}),
    cwd: inputs.cwd,
    workspace: inputs.workspace,
    home,
    ...(inputs.ownData ? { ownData: inputs.ownData } : {}),
    ...(inputs.ownConfig ? { ownConfig: inputs.ownConfig } : {}),
  };
}

/**
 * Checks every rule each config file writes, its agents' included, as written: an untrusted
 * repository's allows are left out of the run, but a broken rule there is still an error.
 */
export function checkWrittenRules(config: LoadedConfig): void {
  for (const doc of config.documents) {
    const layer = RULE_LAYER[doc.layer];
    if (!layer) continue;
    rulesOf(doc, layer, doc.data.permission, ["permission"]);
    for (const [name, agent] of Object.entries(doc.data.agent ?? {})) {
      if (agent?.permission) rulesOf(doc, "agent", agent.permission, ["agent", name, "permission"]);
    }
  }
}

function rulesOf(doc: ConfigDocument, layer: Layer, value: unknown, keyPath: string[], trusted = false): Rule[] {
  return rulesFromConfig(value, {
    layer,
    file: doc.file ?? doc.source,
    keyPath,
    ...(doc.lineOf ? { lineOf: doc.lineOf } : {}),
    ...(doc.layer === "project" ? { repository: { trusted } } : {}),
  });
}

/** Allows first, then asks, then denies: among the run's own flags, the stricter one is the later. */
function sessionRules(flags: SessionRuleFlags): Rule[] {
  const of = (specs: string[] | undefined, effect: Effect, flag: string) =>
    (specs ?? []).map((spec) => ruleFromSpec(spec, effect, { layer: "session", key: `${flag} ${spec}` }));
  return [
    ...of(flags.allow, "allow", "--allow"),
    ...of(flags.ask, "ask", "--ask"),
    ...of(flags.deny, "deny", "--deny"),
  ];
}

/** A folder bosun itself sends the model to: `external_directory` allows it (built-in layer). */
export function ownFolderRule(folder: string): Rule {
  return {
    action: "external_directory",
    pattern: `${folder.replace(/[*?[\]{}\\]/g, "\\$&")}/**`,
    effect: "allow",
    source: { layer: "default", file: "built-in", key: `bosun's own files (${folder})` },
  };
}

/** How many rules each layer holds, for the `permission.mode` decision. */
export function layerCounts(ctx: AuthorityContext): Record<string, number> {
  const counts: Record<string, number> = {};
  const layers = ruleSetsOf(ctx.rules).flatMap((set) => set.layers);
  for (const rule of layers.flat()) counts[rule.source.layer] = (counts[rule.source.layer] ?? 0) + 1;
  return counts;
}

/**
 * The rules no agent chooses: bosun's built-in layer (its defaults and its own folders) and the
 * person's saved approvals for this project. Every rule set of an authority holds the same
 * (a delegate's gets its parent's: delegate.ts), so no set asks where bosun or the person
 * already answered — and since a delegate's answer is the strictest of its sets, what they let
 * through in its own set can never reach past the parent's.
 */
export interface SharedRules {
  builtIn: Rule[];
  saved: Rule[];
}

export function sharedRules(authority: Authority): SharedRules {
  const all = ruleSetsOf(authority).flatMap((set) => set.layers.flat());
  return {
    builtIn: uniqueBy(
      all.filter((r) => r.source.layer === "default" && r.source.file === "built-in"),
      ruleIdentity,
    ),
    saved: uniqueBy(
      all.filter((r) => r.source.layer === "saved"),
      ruleIdentity,
    ),
  };
}

/**
 * A rule set's layers with the shared rules it lacks, added after its own: the evaluator orders
 * rules by their layer, so a built-in one still counts as built-in (after the set's own built-in
 * rules, as bosun's own folders come after the defaults) and a saved one as saved. Pure.
 */
export function withSharedRules(layers: readonly Rule[][], shared: SharedRules): Rule[][] {
  const have = new Set(layers.flat().map(ruleIdentity));
  const missing = [...shared.builtIn, ...shared.saved].filter((r) => !have.has(ruleIdentity(r)));
  return missing.length > 0 ? [...layers, missing] : [...layers];
}

/**
 * The authority with a folder of bosun's own (this session's overflow files) in force in every
 * rule set, as a built-in rule. Pure: a gate already judging with the old authority keeps it.
 */
export function withOwnFolder(authority: Authority, folder: string): Authority {
  return mapRuleSets(authority, (layers) => withAdded(layers, [ownFolderRule(folder)]));
}

/** The authority with the person's new "always" approvals in force in every rule set's saved layer. Pure, like withOwnFolder. */
export function withSavedApprovals(authority: Authority, rules: readonly Rule[]): Authority {
  return mapRuleSets(authority, (layers) => withAdded(layers, rules));
}

/**
 * A set's layers with the rules it does not hold yet at the end of its last: the evaluator
 * orders rules by their layer, so each counts in its own (built-in, saved), after the rules
 * already there — bosun's own folder after the defaults, a new approval after the older ones.
 */
function withAdded(layers: Rule[][], rules: readonly Rule[]): Rule[][] {
  const have = new Set(layers.flat().map(ruleIdentity));
  const fresh = uniqueBy(
    rules.filter((r) => !have.has(ruleIdentity(r))),
    ruleIdentity,
  );
  if (fresh.length === 0) return layers;
  const last = layers.at(-1);
  return last ? [...layers.slice(0, -1), [...last, ...fresh]] : [fresh];
}

function ruleIdentity(rule: Rule): string {
  return [rule.action, rule.pattern, rule.effect, rule.when ?? "", rule.source.layer, rule.source.key].join("\0");
}
