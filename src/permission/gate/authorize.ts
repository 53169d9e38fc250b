import type { Holder, Reason } from "../../contracts/decisions.js";
import type { ModeName } from "../../contracts/modes.js";
import type { CallDescription, Request } from "../../contracts/requests.js";
import { combine, type RequestOutcome } from "../rules/evaluate.js";
import { type Authority, outcomesUnder } from "../rules/intersect.js";
import { MODES } from "../rules/modes.js";
import { isInside } from "../rules/requests.js";
import type { Effect, Layer } from "../rules/rules.js";

/** An agent that may not change anything, and who made it so. */
export interface ReadOnlyAgent {
  agent: string;
  /** code for the built-in plan agent; config for an agent configured `read_only: true`. */
  holder: Holder;
  source?: string;
  key?: string;
  line?: number;
}

/** Everything a call is judged against: the rule layers, the mode, a read-only agent. */
export interface AuthorityContext {
  rules: Authority;
  mode: { name: ModeName; holder: Holder; source?: string };
  readOnly?: ReadOnlyAgent;
  /** Where the tools run: relative paths resolve against it. */
  cwd: string;
  /** The folder the agent works in (the repository root, else cwd): absolute, resolved through symlinks. */
  workspace: string;
  home: string;
  /** bosun's own data folder (resolved): no tool may edit in it. */
  ownData?: string;
  /**
   * bosun's own config folder (resolved: the person's bosun.json, agents, recipes): no tool may
   * edit in it either — a model writing there would write the rules, agents and modes it runs under.
   */
  ownConfig?: string;
}

/** One request's answer after the rules, the read-only agent and the mode, with who gave it. */
export interface Judged extends RequestOutcome {
  holder: Holder;
}

export interface PermissionAnswer {
  holder: Holder;
  answer: Effect;
  reasons: Reason[];
  outcomes: Judged[];
  /** Asking requests smart mode's judge may clear: unclassified shell commands nobody wrote a rule for. */
  judgeable: Request[];
}

/**
 * Seat `call.permission`: the rules' answer for a described call. Pure. In order:
 *
 * 1. A call that could not be fully described (a shell line that does not parse) asks — it is
 *    never allowed, in any mode; a read-only agent or chat mode denies it.
 * 2. Every request is evaluated against the rule layers (evaluate.ts: last match wins, saved
 *    approvals never lift a configured deny or ask) — a delegate's against every rule set, the
 *    strictest answer taken (intersect.ts). A file that makes programs run later is allowed only
 *    by a rule that names it; bosun's own data folder is never a tool's to edit.
 * 3. A read-only agent denies every edit, every shell command not proven read-only and every
 *    MCP tool not annotated read-only — after the rules, so no config can loosen it.
 * 4. The mode: auto turns an ask into allow; chat denies everything.
 *
 * The call: any deny → deny; else any ask → ask; else allow. Policy, hooks, the judge and the
 * person come after this (gate.ts); none of them can loosen a deny.
 */
export function authorize(description: CallDescription, ctx: AuthorityContext): PermissionAnswer {
  const mode = MODES[ctx.mode.name];
  if (description.problem !== undefined) return undescribed(description.problem, ctx);

  // The protected-file guard reads which rule allowed: it judges each rule set's answer, so a
  // delegate's catch-all allow asks even where its parent names the file (intersect.ts).
  const evaluated = outcomesUnder(
    ctx.rules,
    description.requests,
    { workspace: ctx.workspace, home: ctx.home },
    (raw) => guardProtected({ ...raw, holder: raw.rule ? holderOfLayer(raw.rule.source.layer) : "code" }),
  );
  const outcomes: Judged[] = evaluated.map((guarded) => {
    let outcome = guardOwnData(guarded, ctx);
    if (ctx.readOnly) outcome = restrictReadOnly(outcome, ctx.readOnly);
    if (mode.after === "ask-allows" && outcome.effect === "ask" && outcome.personOnly === undefined) {
      outcome = {
        ...outcome,
        effect: "allow",
        holder: ctx.mode.holder,
        reasons: [modeReason(ctx, "ask → allow (auto runs what no rule denies)"), ...outcome.reasons],
      };
    }
    if (mode.after === "deny-all" && outcome.effect !== "deny") {
      outcome = {
        ...outcome,
        effect: "deny",
        holder: ctx.mode.holder,
        reasons: [modeReason(ctx, "deny (no tool runs in chat mode)"), ...outcome.reasons],
      };
    }
    return outcome;
  });
  return summarizeJudged(outcomes, ctx);
}

/** The call's answer from its requests' answers: the first request with the call's effect speaks. */
export function summarizeJudged(outcomes: Judged[], ctx: AuthorityContext): PermissionAnswer {
  if (outcomes.length === 0) {
    return {
      holder: "code",
      answer: "ask",
      reasons: [{ rule: "no requests", detail: "ask — the call named nothing to check (fail closed)", decisive: true }],
      outcomes,
      judgeable: [],
    };
  }
  const answer = combine(outcomes.map((o) => o.effect));
  const decisive = outcomes.find((o) => o.effect === answer) as Judged;
  const reasons: Reason[] = [];
  for (const outcome of outcomes) {
    outcome.reasons.forEach((reason, index) => {
      reasons.push(index === 0 && outcome.effect === answer ? { ...reason, decisive: true } : reason);
    });
  }
  const judgeable = MODES[ctx.mode.name].judge
    ? outcomes
        .filter(
          (o) =>
            o.effect === "ask" &&
            o.request.action === "shell" &&
            o.request.unclassified === true &&
            (o.rule === undefined || o.rule.source.layer === "default" || o.rule.source.layer === "mode"),
        )
        .map((o) => o.request)
    : [];
  return { holder: decisive.holder, answer, reasons, outcomes, judgeable };
}

/** Who holds an answer a rule of this layer gave. */
export function holderOfLayer(layer: Layer): Holder {
  switch (layer) {
    case "default":
    case "mode":
      return "code";
    case "global":
    case "project":
    case "env":
    case "agent":
      return "config";
    case "session":
    case "saved":
      return "person";
    case "policy":
      return "policy";
  }
}

function undescribed(problem: string, ctx: AuthorityContext): PermissionAnswer {
  const mode = MODES[ctx.mode.name];
  const reason: Reason = {
    rule: "not fully described",
    detail: `${problem} — a call bosun cannot analyse is never allowed`,
    decisive: true,
  };
  if (ctx.readOnly) {
    return {
      holder: ctx.readOnly.holder,
      answer: "deny",
      reasons: [{ ...readOnlyReason(ctx.readOnly, "a call it cannot analyse"), decisive: true }, reason],
      outcomes: [],
      judgeable: [],
    };
  }
  if (mode.after === "deny-all") {
    return {
      holder: ctx.mode.holder,
      answer: "deny",
      reasons: [{ ...modeReason(ctx, "deny (no tool runs in chat mode)"), decisive: true }, reason],
      outcomes: [],
      judgeable: [],
    };
  }
  return { holder: "code", answer: "ask", reasons: [reason], outcomes: [], judgeable: [] };
}

/**
 * Files whose content makes programs run later, outside any call's judgement: whatever is in a
 * git directory (its config's `core.fsmonitor`, `core.pager`, aliases, `core.hooksPath`, hooks,
 * `commondir`, submodules' configs) or names one (a `.git` file), direnv's `.envrc`.
 * Writing one is allowed only by a rule that names it; a rule for every file (`edit: "allow"`,
 * `**`) asks instead.
 */
const PROTECTED = [
  // Anything of a git directory (config, hooks, commondir, modules/*/config, worktrees/*), and a
  // `.git` file (a gitfile naming another git directory).
  /\/\.git(\/|$)/,
  /\/\.envrc$/,
];
const CATCH_ALL = new Set(["*", "**", "/**", "**/*"]);

function guardProtected(outcome: Judged): Judged {
  const { request, rule } = outcome;
  if (request.action !== "edit" || outcome.effect !== "allow") return outcome;
  if (!PROTECTED.some((p) => p.test(request.resource))) return outcome;
  if (rule && !CATCH_ALL.has(rule.pattern)) return outcome;
  return {
    ...outcome,
    effect: "ask",
    holder: "code",
    reasons: [
      {
        rule: `${request.action}:${request.resource}`,
        detail: `ask — this file makes programs run later (git config or hooks, .envrc); only a rule that names it allows writing it`,
      },
      ...outcome.reasons,
    ],
  };
}

/**
 * bosun's own files (the session database, other sessions' output files, the person's config,
 * agents and recipes) are never a tool's to change, whatever a rule or the mode says.
 */
function guardOwnData(outcome: Judged, ctx: AuthorityContext): Judged {
  const { request } = outcome;
  if (request.action !== "edit" || outcome.effect === "deny" || request.resource === "*") return outcome;
  // The data folder first: under BOSUN_HOME it sits inside the config folder, and says its own reason.
  const inData = ctx.ownData !== undefined && isInside(request.resource, ctx.ownData);
  if (!inData && ctx.ownConfig && isInside(request.resource, ctx.ownConfig)) {
    return {
      ...outcome,
      effect: "deny",
      holder: "code",
      reasons: [
        {
          rule: `edit:${request.resource}`,
          detail:
            "deny — bosun's own config (its rules, agents, recipes) is not a tool's to change: bosun config set is the person's",
        },
        ...outcome.reasons,
      ],
    };
  }
  if (!inData) return outcome;
  return {
    ...outcome,
    effect: "deny",
    holder: "code",
    reasons: [
      {
        rule: `edit:${request.resource}`,
        detail: "deny — bosun's own data (sessions, output files) is not a tool's to change",
      },
      ...outcome.reasons,
    ],
  };
}

/** What a read-only agent may not do: change files, run commands not proven read-only, use unannotated MCP tools. */
function readOnlyViolation(request: Request): string | undefined {
  if (request.action === "edit") return "an edit";
  if (request.action === "shell" && request.readOnly !== true) return "a command not proven read-only";
  if (request.action === "mcp" && request.readOnly !== true) return "an MCP tool not annotated read-only";
  return undefined;
}

function restrictReadOnly(outcome: Judged, agent: ReadOnlyAgent): Judged {
  const violation = readOnlyViolation(outcome.request);
  if (!violation || outcome.effect === "deny") return outcome;
  return {
    ...outcome,
    effect: "deny",
    holder: agent.holder,
    reasons: [readOnlyReason(agent, violation, outcome.request), ...outcome.reasons],
  };
}

function readOnlyReason(agent: ReadOnlyAgent, what: string, request?: Request): Reason {
  return {
    rule: request ? `${request.action}:${request.resource}` : "read-only agent",
    detail: `deny — agent ${agent.agent} is read-only: ${what} (rules cannot lift this)`,
    source: agent.source ?? "built-in",
    ...(agent.key ? { key: agent.key } : {}),
    ...(agent.line ? { line: agent.line } : {}),
  };
}

function modeReason(ctx: AuthorityContext, detail: string): Reason {
  return { rule: `mode ${ctx.mode.name}`, detail, ...(ctx.mode.source ? { source: ctx.mode.source } : {}) };
}
