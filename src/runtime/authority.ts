import { dirname, join } from "node:path";
import type { LoadedConfig } from "../config/load.js";
import { dataDir, globalConfigFile } from "../config/paths.js";
import type { Agent } from "../contracts/agent.js";
import type { Confinement } from "../contracts/confinement.js";
import type { Answer, Decision } from "../contracts/decisions.js";
import { UsageError } from "../errors.js";
import { type ResolvedModel, resolveModel } from "../model/resolve.js";
import type { AuthorityContext } from "../permission/gate/authorize.js";
import { type RepositoryGrant, repositoryConfinement } from "../permission/gate/confine.js";
import type { GateDeps } from "../permission/gate/gate.js";
import { type Hook, hooksFromConfig } from "../permission/gate/hooks.js";
import { terminalPrompt, terminalTrustPrompt } from "../permission/gate/prompt-terminal.js";
import {
  buildAuthority,
  checkWrittenRules,
  layerCounts,
  type SessionRuleFlags,
  withOwnFolder,
} from "../permission/rules/layers.js";
import { decideMode, MODES, type ModeChoice } from "../permission/rules/modes.js";
import { loadPolicy, type Policy } from "../permission/rules/policy.js";
import { resolveRequestPath } from "../permission/rules/requests.js";
import type { Rule } from "../permission/rules/rules.js";
import { savedRules } from "../permission/rules/saved.js";
import { hookId, judgeProjectCommand, projectCommands } from "../permission/trust/project-commands.js";
import {
  decideProjectTrust,
  projectLoosening,
  type TrustPrompt,
  withoutLoosening,
} from "../permission/trust/project-trust.js";
import { isSessionId } from "../session/schemas.js";
import { saveApprovals } from "../store/saved-approvals.js";
import type { SessionStore } from "../store/session-store.js";
import { isTrusted, trustProject } from "../store/trusted-projects.js";
import { containedPath, PathEscapeError } from "../util/contained.js";
import type { Face } from "../util/face.js";
import { workspaceOf } from "../util/repo.js";
import { type SessionGate, sessionGate } from "./session-gate.js";
import { warnOnStderr } from "./warn.js";

/** Everything `bosun run` settles about authority before the first step. */
export interface RunAuthority {
  authority: AuthorityContext;
  policy: Policy;
  hooks: Hook[];
  /** Seats `project.trust` (when the repository's config would loosen anything) and `permission.mode`, recorded when the session is set up. */
  setupDecisions: Decision[];
}

/**
 * Seat `project.trust`, before anything else of the run is decided: when the repository's own
 * config would loosen anything and nobody trusts it, the config is loaded again without those
 * settings, and that is the config the run uses. A lasting yes is saved for that exact content.
 */
export async function settleTrust(input: {
  config: LoadedConfig;
  reload: (filterProject: (data: unknown) => unknown) => LoadedConfig;
  trustFlag: boolean;
  interactive: boolean;
  /** Where the warning is read: the interactive session names its own way to trust (a new session asks again). */
  face?: Face;
  /** Asks the person (the interactive session's dialog); at a plain terminal, a prompt on stderr. */
  trustPrompt?: TrustPrompt;
  /** Where a warning goes (stderr, or the interactive session's transcript). */
  warn?: (text: string) => void;
  store: SessionStore;
  cwd: string;
  signal: AbortSignal;
}): Promise<{ config: LoadedConfig; decision?: Decision; leftOut?: string[] }> {
  checkWrittenRules(input.config);
  const loosening = projectLoosening(input.config);
  if (!loosening) return { config: input.config };
  const workspace = workspaceOf(input.cwd);
  const answer = await decideProjectTrust({
    loosening,
    flag: input.trustFlag,
    saved: isTrusted(input.store, workspace, loosening.fingerprint),
    ...(input.interactive
      ? { prompt: input.trustPrompt ?? terminalTrustPrompt({ input: process.stdin, output: process.stderr }) }
      : {}),
    signal: input.signal,
  });
  if (answer.save) trustProject(input.store, workspace, loosening.fingerprint, loosening.items);
  const decision: Decision = {
    seat: "project.trust",
    holder: answer.holder,
    answer: answer.answer,
    reasons: answer.reasons,
  };
  if (answer.answer === "trusted") return { config: input.config, decision };
  const fix = input.face === "tui" ? "a new session (/new) asks again" : "--trust-project applies it";
  (input.warn ?? warnOnStderr)(
    `not applying what ${loosening.files.join(", ")} would loosen (${loosening.items.join("; ")}): not trusted; ${fix}`,
  );
  return { config: input.reload(withoutLoosening), decision, leftOut: loosening.items };
}

/** The modes an untrusted repository asked for, as reasons of the mode decision. */
function modesLeftOut(items: readonly string[]): Decision["reasons"] {
  return items.flatMap((item) => {
    const asked = /^(?:agent (\S+) )?mode (\S+)$/.exec(item);
    if (!asked) return [];
    const whose = asked[1] ? ` (agent ${asked[1]})` : "";
    return [{ rule: "not trusted", detail: `${asked[2]}${whose} not used: the repository's settings are not trusted` }];
  });
}

/**
 * Reads the policy, picks the mode, builds the rule layers. Everything here is checked before a
 * session is opened: a bad rule, flag or policy stops the run with nothing written.
 */
export function prepareAuthority(input: {
  config: LoadedConfig;
  agent: Agent;
  modeFlag?: string;
  /** Where the person chose modeFlag, when not at the command line. */
  modeChoice?: ModeChoice;
  flags: SessionRuleFlags;
  store: SessionStore;
  cwd: string;
  /** Seat `project.trust`'s answer, recorded with the rest of the set-up. */
  trust?: Decision;
  /** What the untrusted repository's config would have loosened (so the mode can say why it is not used). */
  leftOut?: string[];
  /** Where a bad mode's error is read (`--mode` or `/mode`). */
  face?: Face;
}): RunAuthority {
  const policy = loadPolicy();
  const workspace = workspaceOf(input.cwd);
  const mode = decideMode(input.modeFlag, input.agent, input.config, input.face, input.modeChoice);
  const authority = buildAuthority({
    config: input.config,
    agent: input.agent,
    mode: { name: mode.answer, holder: mode.holder, ...sourceOf(mode) },
    flags: input.flags,
    saved: savedRules(input.store, workspace),
    cwd: input.cwd,
    workspace,
    ownData: ownDataFolder(),
    ownConfig: resolveRequestPath(dirname(globalConfigFile()), "/"),
    projectTrusted: input.trust?.answer === "trusted",
  });
  const hooks = hooksFromConfig(input.config);
  const counts = layerCounts(authority);
  return {
    authority,
    policy,
    hooks,
    setupDecisions: [
      ...(input.trust ? [input.trust] : []),
      {
        seat: "permission.mode",
        holder: mode.holder,
        answer: mode.answer,
        reasons: [
          ...mode.reasons,
          ...modesLeftOut(input.leftOut ?? []),
          { rule: "what it does", detail: MODES[mode.answer].summary },
          ...(authority.readOnly
            ? [
                {
                  rule: "read-only agent",
                  detail: `${authority.readOnly.agent}: edits, writing commands and unannotated MCP tools are denied`,
                  source: authority.readOnly.source ?? "built-in",
                },
              ]
            : []),
          {
            rule: "rule layers",
            detail: Object.entries(counts)
              .map(([layer, n]) => `${layer} ${n}`)
              .join(", "),
            source: workspace,
          },
          {
            rule: "policy",
            detail:
              policy.files.length > 0
                ? `${policy.rules.length} deny rules from ${policy.files.join(", ")}`
                : "none (no /etc/bosun/policy.json, no BOSUN_POLICY)",
          },
          { rule: "hooks", detail: hooks.length > 0 ? hooks.map((h) => `${h.key} (${h.source})`).join(", ") : "none" },
        ],
      },
    ],
  };
}

function sourceOf(answer: Answer): { source?: string } {
  const source = answer.reasons.find((r) => r.decisive)?.source;
  return source ? { source } : {};
}

/** bosun's own data folder, resolved as requests are (it may not exist yet). */
function ownDataFolder(): string {
  return resolveRequestPath(dataDir(), "/");
}

/** Every session's saved outputs (tools/saved-output.ts): under the data folder, never /tmp. */
export function overflowRoot(): string {
  return join(ownDataFolder(), "overflow");
}

/**
 * This session's overflow folder: the model is told to read a cut result's full text, and a long
 * command's whole output, from there (tools/bound.ts, tools/process.ts), and an allow rule lets it. The id comes from the database, so it is checked
 * before it names a folder or a rule: only an id bosun makes (an older bosun imported anything),
 * and only a folder inside the overflow folder — never `../` somewhere else, never a glob.
 */
export function overflowFolder(sessionId: string): string {
  const refused = () =>
    new UsageError(
      `session id ${JSON.stringify(sessionId)} is not one bosun makes; it cannot name a folder (delete the session: bosun sessions delete)`,
    );
  if (!isSessionId(sessionId)) throw refused();
  try {
    return containedPath(overflowRoot(), sessionId);
  } catch (error) {
    if (error instanceof PathEscapeError) throw refused();
    throw error;
  }
}

/** The judge's model in smart mode: config `judge_model` (a repository's only when trusted), else the session's own. */
export function judgeModel(config: LoadedConfig, sessionModel: ResolvedModel): ResolvedModel {
  const ref = config.config.judge_model;
  if (!ref) return sessionModel;
  const resolved = resolveModel(ref, config);
  if (!resolved.ok) throw new UsageError(`judge_model "${ref}" cannot be used: ${resolved.problem}; ${resolved.fix}`);
  return resolved.model;
}

/**
 * The session's gate (session-gate.ts): saved approvals in the store, this session's own
 * overflow folder readable in every rule set (a delegate's too), the person's "always" in force
 * for the next call judged — by a new authority, never by pushing into the old one.
 */
export function gateDeps(input: {
  prepared: RunAuthority;
  store: SessionStore;
  sessionId: string;
  auto: boolean;
  interactive: boolean;
  judge?: GateDeps["judge"];
  sandbox: "on" | "off";
  sandboxSource?: string;
  record: (decision: Decision) => void;
  signal: AbortSignal;
  /** A delegate's: the person's "always" given here is put in force in its parent's gate too. */
  onSaved?: (rules: readonly Rule[]) => void;
}): SessionGate {
  const prepared = input.prepared.authority;
  // The session is known only now: its own overflow folder is readable outside the workspace, no other session's.
  const own = overflowFolder(input.sessionId);
  const authority: AuthorityContext = { ...prepared, rules: withOwnFolder(prepared.rules, own) };
  return sessionGate(
    (saveAlways) => ({
      authority,
      policy: input.prepared.policy,
      hooks: input.prepared.hooks,
      ...(input.interactive ? { prompt: terminalPrompt({ input: process.stdin, output: process.stderr }) } : {}),
      auto: input.auto,
      ...(input.judge ? { judge: input.judge } : {}),
      sandbox: input.sandbox,
      ...(input.sandboxSource ? { sandboxSource: input.sandboxSource } : {}),
      visible: [authority.workspace, own],
      ownState: [dataDir(), dirname(globalConfigFile())],
      saveAlways,
      record: input.record,
      sessionId: input.sessionId,
      signal: input.signal,
    }),
    (rules, tool) => {
      saveApprovals(input.store, authority.workspace, rules, { tool, sessionId: input.sessionId });
      return savedRules(input.store, authority.workspace).filter((r) =>
        rules.some((n) => n.action === r.action && n.pattern === r.pattern),
      );
    },
    input.onSaved,
  );
}

/**
 * The hooks a gate may run once seat project.command was answered: a repository's that were not
 * let run are left out, the rest carry who let them (their confinement is made from it).
 */
export function judgedHooks(hooks: readonly Hook[], allowed: ProjectCommandsAllowed): Hook[] {
  // Only a repository's hooks were judged: the person's own run whatever a repository's are answered.
  return hooks
    .filter((hook) => !hook.fromProject || !allowed.skipped.has(hookId(hook)))
    .map((hook) => (hook.fromProject ? { ...hook, grant: allowed.grants.get(hookId(hook)) ?? "proof" } : hook));
}

/** What seat project.command (and exec.sandbox) settled for the repository's own commands. */
export interface ProjectCommandsAllowed {
  /** Those that must not run: `mcp.<name>`, or a hook's `hookId` (its file and key). */
  skipped: Set<string>;
  /** Why each of those was not let run (the decisive reason recorded): what /mcp says of a server. */
  why: Map<string, string>;
  /** Who let each of the others run (its hook's confinement is made from it at every run). */
  grants: Map<string, RepositoryGrant>;
  /** Each MCP server's confinement, made once, as it starts (undefined: shell.sandbox off). */
  confinements: Map<string, Confinement | undefined>;
}

/**
 * Seat `project.command` for each hook and MCP server the repository's config names: judged
 * before any of them runs, each answer recorded; one let run is then confined (seat
 * exec.sandbox, recorded too), and one that cannot be confined does not run.
 */
export async function trustProjectCommands(
  config: LoadedConfig,
  /** The gate as things stand: a lasting yes to one command is in force when the next is judged. */
  current: () => Readonly<GateDeps>,
  record: (decision: Decision) => void,
  warn: (text: string) => void = warnOnStderr,
): Promise<ProjectCommandsAllowed> {
  const allowed: ProjectCommandsAllowed = {
    skipped: new Set(),
    why: new Map(),
    grants: new Map(),
    confinements: new Map(),
  };
  for (const command of projectCommands(config, current().hooks)) {
    const gate = current();
    const { grant, ...answer } = await judgeProjectCommand(command, {
      authority: gate.authority,
      ...(gate.prompt ? { prompt: gate.prompt } : {}),
      saveAlways: gate.saveAlways,
      signal: gate.signal,
    });
    record({ seat: "project.command", ...answer, subject: { key: command.key } });
    let why = answer.reasons.find((r) => r.decisive)?.detail ?? "not approved";
    if (answer.answer === "run" && grant) {
      const sandbox = await repositoryConfinement(grant, gate);
      record({
        seat: "exec.sandbox",
        holder: sandbox.holder,
        answer: sandbox.answer,
        reasons: sandbox.reasons,
        subject: { key: command.key },
      });
      if (sandbox.answer !== "unavailable" && sandbox.answer !== "denied") {
        allowed.grants.set(command.id, grant);
        allowed.confinements.set(command.id, sandbox.confine);
        continue;
      }
      why = sandbox.reasons[0]?.detail ?? "it cannot be confined here";
    }
    allowed.skipped.add(command.id);
    allowed.why.set(command.id, why);
    warn(`not running ${command.key} from ${command.source} (${why})`);
  }
  return allowed;
}
