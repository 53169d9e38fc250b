import { join } from "node:path";
import type { Agent } from "../agents/select.js";
import type { LoadedConfig } from "../config/load.js";
import { dataDir } from "../config/paths.js";
import { UsageError } from "../errors.js";
import { type ResolvedModel, resolveModel } from "../model/resolve.js";
import type { AuthorityContext } from "../permission/authorize.js";
import type { GateDeps } from "../permission/gate.js";
import { type Hook, hooksFromConfig } from "../permission/hooks.js";
import { buildAuthority, layerCounts, type SessionRuleFlags } from "../permission/layers.js";
import { decideMode, MODES } from "../permission/modes.js";
import { loadPolicy, type Policy } from "../permission/policy.js";
import { judgeProjectCommand, projectCommands } from "../permission/project-commands.js";
import { decideProjectTrust, projectLoosening, usableValue } from "../permission/project-trust.js";
import { terminalPrompt, terminalTrustPrompt } from "../permission/prompt-terminal.js";
import type { Answer, Decision } from "../seats/types.js";
import { saveApprovals, savedRules } from "../store/saved-approvals.js";
import type { SessionStore } from "../store/session-store.js";
import { isTrusted, trustProject } from "../store/trusted-projects.js";
import { workspaceOf } from "../util/repo.js";

/** Everything `bosun run` settles about authority before the first step. */
export interface RunAuthority {
  authority: AuthorityContext;
  policy: Policy;
  hooks: Hook[];
  /** Seats `project.trust` (when the repository's config would loosen anything) and `permission.mode`, recorded when the session is set up. */
  setupDecisions: Decision[];
  /** Whether the repository's loosening settings apply (there were some and the person trusted them). */
  untrustedProject: boolean;
}

/**
 * Reads the policy, picks the mode, builds the rule layers. Everything here is checked before a
 * session is opened: a bad rule, flag or policy stops the run with nothing written.
 */
export async function prepareAuthority(input: {
  config: LoadedConfig;
  agent: Agent;
  modeFlag?: string;
  flags: SessionRuleFlags;
  trustFlag: boolean;
  interactive: boolean;
  store: SessionStore;
  cwd: string;
  signal: AbortSignal;
}): Promise<RunAuthority> {
  const policy = loadPolicy();
  const workspace = workspaceOf(input.cwd);
  const trust = await decideTrust(input, workspace);
  const untrustedProject = trust?.answer === "untrusted";
  const mode = decideMode(input.modeFlag, input.agent, input.config, { untrustedProject });
  const authority = buildAuthority({
    untrustedProject,
    config: input.config,
    agent: input.agent,
    mode: { name: mode.answer, holder: mode.holder, ...sourceOf(mode) },
    flags: input.flags,
    saved: savedRules(input.store, workspace),
    cwd: input.cwd,
    workspace,
    // The model is told to read a cut result's full text from here (tools/bound.ts).
    ownFolders: [join(dataDir(), "overflow")],
  });
  const hooks = hooksFromConfig(input.config);
  const counts = layerCounts(authority);
  return {
    authority,
    policy,
    hooks,
    untrustedProject,
    setupDecisions: [
      ...(trust ? [{ seat: "project.trust", holder: trust.holder, answer: trust.answer, reasons: trust.reasons }] : []),
      {
        seat: "permission.mode",
        holder: mode.holder,
        answer: mode.answer,
        reasons: [
          ...mode.reasons,
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

/** Seat `project.trust`, when the repository's own config would loosen anything; a lasting yes is saved. */
async function decideTrust(
  input: {
    config: LoadedConfig;
    agent: Agent;
    trustFlag: boolean;
    interactive: boolean;
    store: SessionStore;
    signal: AbortSignal;
  },
  workspace: string,
) {
  const loosening = projectLoosening(input.config, input.agent.name);
  if (!loosening) return undefined;
  const answer = await decideProjectTrust({
    loosening,
    flag: input.trustFlag,
    saved: isTrusted(input.store, workspace, loosening.fingerprint),
    ...(input.interactive ? { prompt: terminalTrustPrompt({ input: process.stdin, output: process.stderr }) } : {}),
    signal: input.signal,
  });
  if (answer.save) trustProject(input.store, workspace, loosening.fingerprint, loosening.items);
  if (answer.answer === "untrusted") {
    process.stderr.write(
      `bosun: not applying what ${loosening.files.join(", ")} would loosen (${loosening.items.join("; ")}): not trusted; --trust-project applies it\n`,
    );
  }
  return answer;
}

function sourceOf(answer: Answer): { source?: string } {
  const source = answer.reasons.find((r) => r.decisive)?.source;
  return source ? { source } : {};
}

/** The judge's model in smart mode: config `judge_model` (a repository's only when trusted), else the session's own. */
export function judgeModel(
  config: LoadedConfig,
  sessionModel: ResolvedModel,
  untrustedProject: boolean,
): ResolvedModel {
  const ref = usableValue(config, "judge_model", config.config.judge_model, untrustedProject).value;
  if (!ref) return sessionModel;
  const resolved = resolveModel(ref, config);
  if (!resolved.ok) throw new UsageError(`judge_model "${ref}" cannot be used: ${resolved.problem}; ${resolved.fix}`);
  return resolved.model;
}

/** The gate's dependencies for a run: a terminal prompt when a person is attached, saved approvals in the store. */
export function gateDeps(input: {
  prepared: RunAuthority;
  store: SessionStore;
  sessionId: string;
  auto: boolean;
  interactive: boolean;
  judge?: GateDeps["judge"];
  sandbox: "on" | "off";
  record: (decision: Decision) => void;
  signal: AbortSignal;
}): GateDeps {
  const { authority } = input.prepared;
  return {
    authority,
    policy: input.prepared.policy,
    hooks: input.prepared.hooks,
    ...(input.interactive ? { prompt: terminalPrompt({ input: process.stdin, output: process.stderr }) } : {}),
    auto: input.auto,
    ...(input.judge ? { judge: input.judge } : {}),
    sandbox: input.sandbox,
    visible: [authority.workspace, join(dataDir(), "overflow")],
    saveAlways(rules, tool) {
      saveApprovals(input.store, authority.workspace, rules, { tool, sessionId: input.sessionId });
      // In force at once: the saved layer is the last one (layers.ts).
      if (Array.isArray(authority.rules))
        authority.rules
          .at(-1)
          ?.push(
            ...savedRules(input.store, authority.workspace).filter((r) =>
              rules.some((n) => n.action === r.action && n.pattern === r.pattern),
            ),
          );
    },
    record: input.record,
    sessionId: input.sessionId,
    signal: input.signal,
  };
}

/**
 * Seat `project.command` for each hook and MCP server the repository's config names: judged
 * before any of them runs, each answer recorded. Returns the keys of those that must not run
 * (`hooks.pre_tool[0]`, `mcp.<name>`).
 */
export async function trustProjectCommands(
  config: LoadedConfig,
  gate: GateDeps,
  record: (decision: Decision) => void,
): Promise<Set<string>> {
  const skipped = new Set<string>();
  for (const command of projectCommands(config, gate.hooks)) {
    const answer = await judgeProjectCommand(command, {
      authority: gate.authority,
      ...(gate.prompt ? { prompt: gate.prompt } : {}),
      saveAlways: gate.saveAlways,
      signal: gate.signal,
    });
    record({ seat: "project.command", ...answer, subject: { key: command.key } });
    if (answer.answer === "skip") {
      skipped.add(command.key);
      process.stderr.write(
        `bosun: not running ${command.key} from ${command.source} (${answer.reasons.find((r) => r.decisive)?.detail ?? "not approved"})\n`,
      );
    }
  }
  return skipped;
}
