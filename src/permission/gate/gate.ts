import type { Confinement } from "../../contracts/confinement.js";
import type { Decision, Reason } from "../../contracts/decisions.js";
import type { CallDescription } from "../../contracts/requests.js";
import type { FileAccess, Tool, ToolResult } from "../../contracts/tools.js";
import type { AlwaysRule } from "../rules/always.js";
import { formatRequests, sameRequests } from "../rules/call-requests.js";
import { type Policy, policyDenials } from "../rules/policy.js";
import type { ApprovalPrompt } from "./approval.js";
import { type AuthorityContext, authorize, type Judged, type PermissionAnswer, summarizeJudged } from "./authorize.js";
import {
  type ConfinementVerdict,
  confinementFor,
  guardHardLinks,
  maskingFor,
  mayReadFound,
  type Proof,
  reliesOnProof,
  repositoryConfinement,
  repositoryGrant,
} from "./confine.js";
import { approve } from "./gate-approval.js";
import { CLAUDE_EVENT_NAMES, claudeToolInput, claudeToolName } from "./hook-claude.js";
import { runConfinedHook } from "./hook-confined.js";
import { type Hook, hooksFor, judgePostHook, judgePreHook } from "./hooks.js";
import type { JudgeDeps } from "./judge.js";
import { notifyingDeps } from "./notify-hook.js";

/**
 * The authority layer's one entry point: may this call run? Every seat on the way is answered by
 * its holder and recorded before the next is asked, in this order:
 *
 *   call.permission  the rules, the read-only agent, the mode (authorize.ts)
 *   call.judge       smart mode only: may an unknown command be cleared as read-only?
 *   call.hook        pre_tool hooks: deny or make it ask
 *   call.policy      the administrator's deny-only rules, which nothing before can override
 *   call.approval    the person, when the answer is still ask (or code, when nobody can be asked)
 *
 * Nothing on the way can loosen a deny; only the judge (for unknown commands) and the person
 * (for asks) can turn an ask into a yes.
 */

export interface GateDeps {
  authority: AuthorityContext;
  policy: Policy;
  /** The hooks that may run (a repository's own only once judged: seat project.command). */
  hooks: readonly Hook[];
  /** A person who can be asked; absent when nobody is attached. */
  prompt?: ApprovalPrompt;
  /** --auto: the person's advance answer to every ask. */
  auto: boolean;
  /** Smart mode's judge; absent in other modes. */
  judge?: Omit<JudgeDeps, "step">;
  /** Config `shell.sandbox`: "on" confines commands run on a proof; "off" trusts the analysis alone. */
  sandbox: "on" | "off";
  /** Where `shell.sandbox` was set, for the record. */
  sandboxSource?: string;
  /** Folders a confined command may still read under the hidden ones: the workspace, bosun's overflow files. */
  visible: string[];
  /** bosun's own config and data folders: no command may rewrite them (read-only to masked commands). */
  ownState?: string[];
  /** Saves the person's "always" for this project and puts the rules in force for the rest of the run. */
  saveAlways: (rules: AlwaysRule[], tool: string) => void;
  record: (decision: Decision) => void;
  sessionId: string;
  signal: AbortSignal;
}

export interface GateCall {
  id: string;
  tool: Tool;
  input: Record<string, unknown>;
  /** A command the repository brings (a span of its custom command): it runs sealed, as its hooks do. */
  repository?: true;
  /** Why the call would fail now (the tool's `unready`): then nobody is asked to approve it. */
  unready?: () => string | undefined;
  /** Where the file tools' text comes from (the editor's buffers), for the ask's diff. */
  access?: FileAccess;
}

export type GateResult =
  | {
      run: true;
      description: CallDescription;
      confine?: Confinement;
      /** The paths of the call's own requests, when a person (or --auto) approved it: what it may show. */
      approved?: string[];
    }
  | {
      run: false;
      output: string;
      summary: string;
      /** Denied for want of approval: the person said no, or nobody could be asked (counts toward exit code 3). */
      unapproved?: boolean;
      /** The person left the prompt, or a hook said `continue: false`: stop the turn. */
      stopTurn?: boolean;
      /** Set when a hook stopped the turn (exit 3, like a limit); unset, the person left (cancelled). */
      stopMessage?: string;
    };

export async function gate(
  call: GateCall,
  step: number,
  deps: GateDeps,
  described?: CallDescription,
): Promise<GateResult> {
  const subject = { step, call: call.id };
  const where = { cwd: deps.authority.cwd, workspace: deps.authority.workspace };
  const description = described ?? (await describe(call, where));

  let permission = guardHardLinks(authorize(description, deps.authority), deps);
  deps.record({
    seat: "call.permission",
    holder: permission.holder,
    answer: permission.answer,
    reasons: [
      ...permission.reasons,
      { rule: "requests", detail: formatRequests(description) },
      ...(described
        ? [{ rule: "judged again", detail: "what the call would do changed after it was first judged" }]
        : []),
    ],
    subject,
  });
  if (permission.answer === "deny") return denied(call, permission.reasons, "denied by rule");

  if (permission.answer === "ask" && deps.judge && permission.judgeable.length > 0) {
    permission = await judge(permission, step, deps, subject);
  }

  const proof = reliesOnProof(call.tool, permission, deps.authority);
  const confined = await confineAllowed(call, permission, proof, description, deps, subject);
  if ("refused" in confined) return confined.refused;
  permission = confined.permission;

  const hooked = await preHooks(call, description, permission.answer, deps, subject);
  if ("refused" in hooked) return hooked.refused;
  // Whether the ask, if the call asks, is the rules' alone — what an --allow would lift.
  const askedByRules = confined.askedByRules && !hooked.hookAsked;

  if (deps.policy.files.length > 0) {
    const refusal = policyVerdict(description, deps);
    deps.record({ seat: "call.policy", ...refusal, subject });
    if (refusal.answer === "deny") return denied(call, refusal.reasons, "denied by policy");
  }

  let confine = confined.confine;
  let approved: string[] | undefined;
  if (hooked.effect === "ask") {
    // The notification hooks are told each time the person is asked (seat person.notify).
    const refused = await approve(call, step, notifyingDeps(deps), description, permission, askedByRules);
    if (refused) return refused;
    approved = approvedReads(description);
    if (call.tool.kind === "shell" && proof !== "read-only agent") {
      const masked = await maskApproved(call, description, approved, deps, subject);
      if ("refused" in masked) return masked.refused;
      confine = masked.confine;
    }
  }
  return { run: true, description, ...(confine ? { confine } : {}), ...(approved ? { approved } : {}) };
}

type Subject = { step: number; call: string };

/**
 * A shell command allowed only on the strength of an analysis (or a judge) runs sealed; one a
 * rule allowed runs masked (protected files shown empty). Either is recorded before it runs. A
 * command that cannot be confined is put back to the person (an ask no --allow would lift),
 * unless nobody may loosen it: the read-only agent's, or a repository's own.
 */
async function confineAllowed(
  call: GateCall,
  permission: PermissionAnswer,
  proof: Proof | undefined,
  description: CallDescription,
  deps: GateDeps,
  subject: Subject,
): Promise<
  { refused: GateResult } | { permission: PermissionAnswer; confine: Confinement | undefined; askedByRules: boolean }
> {
  if (!proof && !(call.tool.kind === "shell" && permission.answer === "allow")) {
    return { permission, confine: undefined, askedByRules: true };
  }
  const sandbox = call.repository
    ? await repositoryConfinement(repositoryGrant(permission), deps)
    : proof
      ? await confinementFor(proof, description, deps)
      : await maskingFor(description, deps);
  const refused = recordSandbox(call, sandbox, deps, subject);
  if (refused) return { refused };
  if (sandbox.answer === "unavailable") {
    if (proof === "read-only agent" || call.repository) {
      return { refused: denied(call, sandbox.reasons, "denied: cannot be confined") };
    }
    return { permission: { ...permission, answer: "ask" }, confine: sandbox.confine, askedByRules: false };
  }
  return { permission, confine: sandbox.confine, askedByRules: true };
}

/**
 * The pre_tool hooks, each recorded: one may deny, stop the turn, or make an allowed call ask;
 * none can loosen an ask or a deny. `hookAsked` says a hook asked (then --allow would not help).
 */
async function preHooks(
  call: GateCall,
  description: CallDescription,
  permitted: PermissionAnswer["answer"],
  deps: GateDeps,
  subject: Subject,
): Promise<{ refused: GateResult } | { effect: PermissionAnswer["answer"]; hookAsked: boolean }> {
  let effect = permitted;
  let hookAsked = false;
  for (const hook of hooksFor(deps.hooks, "pre_tool", call.tool.name)) {
    const run = await runConfinedHook(hook, payload("pre_tool", call, deps, description, effect), deps);
    const verdict = judgePreHook(hook, run);
    deps.record({
      seat: "call.hook",
      holder: verdict.holder,
      answer: verdict.answer,
      reasons: verdict.reasons,
      subject: { ...subject, hook: hook.key, event: "pre_tool" },
    });
    if (verdict.answer === "deny") {
      return {
        refused: {
          run: false,
          output: `Denied by a hook: ${verdict.message ?? "no reason given"}. Do not retry this call unchanged.`,
          summary: `${call.tool.name}: denied by hook`,
        },
      };
    }
    if (verdict.answer === "stop") {
      return {
        refused: {
          run: false,
          output: `Not run: a hook stopped the turn (${verdict.message ?? "no reason given"}).`,
          summary: `${call.tool.name}: stopped by hook`,
          stopTurn: true,
          stopMessage: `stopped by a hook (${hook.key}): ${verdict.message ?? "no reason given"}`,
        },
      };
    }
    if (verdict.answer === "ask") hookAsked = true;
    if (verdict.answer === "ask" && effect === "allow") effect = "ask";
  }
  return { effect, hookAsked };
}

/** The paths an approved call's own requests read: what the person, having seen them, let it show. */
function approvedReads(description: CallDescription): string[] {
  return description.requests
    .filter((r) => (r.action === "read" || r.action === "external_directory") && r.resource !== "*")
    .map((r) => r.resource);
}

/** Seat exec.sandbox's answer, on record; a protected file with other names refuses the call outright. */
function recordSandbox(
  call: GateCall,
  sandbox: ConfinementVerdict,
  deps: GateDeps,
  subject: Subject,
): GateResult | undefined {
  deps.record({
    seat: "exec.sandbox",
    holder: sandbox.holder,
    answer: sandbox.answer,
    reasons: sandbox.reasons,
    subject,
  });
  return sandbox.answer === "denied"
    ? denied(call, sandbox.reasons, "denied: a protected file has other names")
    : undefined;
}

/**
 * Someone allowed it who saw or pre-approved it: it runs as they would run it, masked — the
 * files it was approved to read shown, the rest of what the read rules protect not.
 */
async function maskApproved(
  call: GateCall,
  description: CallDescription,
  approved: string[],
  deps: GateDeps,
  subject: Subject,
): Promise<{ refused: GateResult } | { confine: Confinement | undefined }> {
  // A repository's command the person approved is let run by name: sealed, the workspace writable.
  const masking = call.repository
    ? await repositoryConfinement("named", deps)
    : await maskingFor(description, deps, approved, true);
  const refused = recordSandbox(call, masking, deps, subject);
  if (refused) return { refused };
  if (masking.answer === "unavailable") return { refused: denied(call, masking.reasons, "denied: cannot be confined") };
  return { confine: masking.confine };
}

/**
 * Just before a call runs: is it still what was judged? Earlier calls of the same response may
 * have changed the files it names (made a link, created a file it reads). When its requests now
 * differ, it is judged again, every seat anew and recorded, and runs only if that allows it.
 */
export async function recheck(
  call: GateCall,
  judged: CallDescription,
  step: number,
  deps: GateDeps,
): Promise<GateResult> {
  const now = await describe(call, { cwd: deps.authority.cwd, workspace: deps.authority.workspace });
  if (sameRequests(now, judged)) return { run: true, description: judged };
  return gate(call, step, deps, now);
}

export { mayReadFound };

/**
 * After a call ran: post_tool hooks may add context for the model, each recorded. Returns the
 * result with their text appended, and `stopTurn` when a hook said `continue: false`.
 */
export async function afterCall(
  call: GateCall,
  step: number,
  result: ToolResult,
  description: CallDescription,
  deps: GateDeps,
): Promise<ToolResult & { stopTurn?: string }> {
  const hooks = hooksFor(deps.hooks, "post_tool", call.tool.name);
  if (hooks.length === 0) return result;
  const notes: string[] = [];
  let stopTurn: string | undefined;
  for (const hook of hooks) {
    const run = await runConfinedHook(hook, payload("post_tool", call, deps, description, "allow", result), deps);
    const { context, stop, ...verdict } = judgePostHook(hook, run);
    deps.record({
      seat: "call.hook",
      ...verdict,
      subject: { step, call: call.id, hook: hook.key, event: "post_tool" },
    });
    if (context) notes.push(`[hook ${hook.key}] ${context}`);
    if (stop !== undefined) stopTurn ??= `stopped by a hook (${hook.key}): ${stop}`;
  }
  const output = notes.length > 0 ? `${result.output}\n\n${notes.join("\n")}` : result.output;
  return { ...result, output, ...(stopTurn ? { stopTurn } : {}) };
}

async function describe(call: GateCall, where: { cwd: string; workspace: string }): Promise<CallDescription> {
  try {
    return await call.tool.requests(call.input, where);
  } catch (error) {
    return { requests: [], problem: `${call.tool.name} could not describe the call: ${(error as Error).message}` };
  }
}

async function judge(
  permission: PermissionAnswer,
  step: number,
  deps: GateDeps,
  subject: { step: number; call: string },
): Promise<PermissionAnswer> {
  const judgeDeps = deps.judge as Omit<JudgeDeps, "step">;
  const commands = [...new Set(permission.judgeable.map((r) => r.resource))];
  // The judge (and the model client it uses) loads only in smart mode, when a command needs it.
  const { judgeCommands } = await import("./judge.js");
  const verdict = await judgeCommands(commands, { ...judgeDeps, step });
  deps.record({
    seat: "call.judge",
    holder: verdict.holder,
    answer: verdict.answer,
    reasons: verdict.reasons,
    subject: { ...subject, model: judgeDeps.model.ref },
  });
  if (!verdict.verdicts) return permission;
  const outcomes: Judged[] = permission.outcomes.map((outcome) =>
    permission.judgeable.includes(outcome.request) && verdict.verdicts?.get(outcome.request.resource) === true
      ? {
          ...outcome,
          effect: "allow",
          holder: "model",
          reasons: [
            { rule: `shell:${outcome.request.resource}`, detail: `allow — judged read-only by ${judgeDeps.model.ref}` },
            ...outcome.reasons,
          ],
        }
      : outcome,
  );
  return summarizeJudged(outcomes, deps.authority);
}

function policyVerdict(description: CallDescription, deps: GateDeps) {
  const files = deps.policy.files.join(", ");
  if (description.problem !== undefined) {
    return {
      holder: "policy" as const,
      answer: "deny" as const,
      reasons: [
        {
          rule: "policy",
          detail: `deny — the call cannot be analysed (${description.problem}), so it cannot be shown to stay within the policy`,
          source: files,
          decisive: true,
        },
      ],
    };
  }
  const denials = policyDenials(description.requests, deps.policy.rules, {
    workspace: deps.authority.workspace,
    home: deps.authority.home,
  });
  if (denials.length === 0) {
    return {
      holder: "policy" as const,
      answer: "pass" as const,
      reasons: [{ rule: "policy", detail: `no policy rule covers this call (${files})`, decisive: true }],
    };
  }
  return {
    holder: "policy" as const,
    answer: "deny" as const,
    reasons: denials.map(({ request, rule }, index) => ({
      rule: `${request.action}:${request.resource}`,
      detail: `deny — policy rule ${rule.action} "${rule.pattern}" (the administrator's; nothing overrides it)`,
      source: rule.source.file ?? "policy",
      key: rule.source.key,
      ...(rule.source.line ? { line: rule.source.line } : {}),
      ...(index === 0 ? { decisive: true } : {}),
    })),
  };
}

function denied(call: GateCall, reasons: readonly Reason[], summary: string): GateResult {
  const decisive = reasons.find((r) => r.decisive) ?? reasons[0];
  const why = decisive ? `${decisive.rule}: ${decisive.detail ?? ""}`.trim() : "a rule denies it";
  // Which written rule refused, and where: a deny is a rule's answer, not a missing yes, so no flag is
  // suggested (none lifts a policy); whoever wants otherwise changes that rule.
  const where = decisive?.source
    ? ` (${decisive.key ? `${decisive.key}, ` : ""}${decisive.source}${decisive.line ? `:${decisive.line}` : ""})`
    : "";
  return {
    run: false,
    output: `Denied (${why}). Do not retry this call; do what you can without it, and say what was refused.`,
    summary: `${call.tool.name}: ${summary}${where}`,
  };
}

/**
 * What a hook reads on stdin: bosun's own fields (`event`, `tool`, `input`, `requests`, ...) and
 * beside them Claude Code's (its hooks reference, "Hook Input", "PreToolUse Input", "PostToolUse
 * Input": `hook_event_name`, `tool_name`, `tool_input`, `tool_use_id`, `tool_response`,
 * `session_id`, `cwd`), so a hook written for Claude Code reads the real call and not an empty
 * one. Claude Code's `transcript_path` and `permission_mode` are left out: bosun keeps no
 * transcript file, and its modes are not Claude Code's.
 */
function payload(
  event: "pre_tool" | "post_tool",
  call: GateCall,
  deps: GateDeps,
  description: CallDescription,
  effect: string,
  result?: ToolResult,
) {
  const response = result && { output: result.output, is_error: result.isError ?? false, summary: result.summary };
  return {
    event,
    session_id: deps.sessionId,
    cwd: deps.authority.cwd,
    workspace: deps.authority.workspace,
    tool: call.tool.name,
    call_id: call.id,
    input: call.input,
    requests: description.requests.map((r) => ({
      action: r.action,
      resource: r.resource,
      ...(r.readOnly !== undefined ? { read_only: r.readOnly } : {}),
    })),
    ...(description.problem !== undefined ? { problem: description.problem } : {}),
    permission: effect,
    ...(response ? { result: response } : {}),
    hook_event_name: CLAUDE_EVENT_NAMES[event],
    tool_name: claudeToolName(call.tool.name),
    tool_input: claudeToolInput(call.tool.name, call.input, deps.authority.cwd),
    tool_use_id: call.id,
    ...(response ? { tool_response: response } : {}),
  };
}
