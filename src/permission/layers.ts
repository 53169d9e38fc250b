import { homedir } from "node:os";
import type { Agent } from "../agents/select.js";
import type { ConfigDocument, LayerName, LoadedConfig } from "../config/load.js";
import type { Holder } from "../seats/types.js";
import type { AuthorityContext } from "./authorize.js";
import { defaultRules } from "./defaults.js";
import { MODES, type ModeName } from "./modes.js";
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

/** How many rules each layer holds, for the `permission.mode` decision. */
/** A folder bosun itself sends the model to: `external_directory` allows it (built-in layer). */
export function ownFolderRule(folder: string): Rule {
  return {
    action: "external_directory",
    pattern: `${folder.replace(/[*?[\]{}\\]/g, "\\$&")}/**`,
    effect: "allow",
    source: { layer: "default", file: "built-in", key: `bosun's own files (${folder})` },
  };
}

export function layerCounts(ctx: AuthorityContext): Record<string, number> {
  const counts: Record<string, number> = {};
  const layers = Array.isArray(ctx.rules) ? ctx.rules : ctx.rules.sets.flatMap((set) => set.layers);
  for (const rule of layers.flat()) counts[rule.source.layer] = (counts[rule.source.layer] ?? 0) + 1;
  return counts;
}
