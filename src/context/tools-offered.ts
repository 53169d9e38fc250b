import type { Decision, Holder, Reason } from "../contracts/decisions.js";
import type { Action } from "../contracts/requests.js";
import type { Tool } from "../contracts/tools.js";
import type { AuthorityContext } from "../permission/gate/authorize.js";
import { authorize } from "../permission/gate/authorize.js";
import { outrightDenial } from "../permission/rules/intersect.js";
import { policyDenials } from "../permission/rules/policy.js";
import type { Rule } from "../permission/rules/rules.js";
import { EDIT_TOOLS, type EditToolChoice } from "./edit-tool.js";

/** The action every call of a tool makes, by its kind (MCP tools and skills name their own). */
function actionOf(tool: Pick<Tool, "kind" | "name">): Action {
  if (tool.name === "skill") return "skill";
  if (tool.kind === "shell") return "shell";
  if (tool.kind === "edit") return "edit";
  if (tool.kind === "mcp") return "mcp";
  if (tool.kind === "web") return "web";
  return "read";
}

export interface ToolsOffered {
  offered: Tool[];
  decision: Decision;
}

/**
 * Seat `context.tools`: which tools the model is offered this step. A tool every call of which
 * the rules deny (a deny for its action, with nothing after it that allows or asks) is not
 * offered, nor one a read-only agent may never use (edits, MCP tools not annotated read-only),
 * nor an MCP tool whose schema bosun cannot compile (no call of it could pass call.validate);
 * in a mode that runs no tools, none is. Of edit and apply_patch, one is offered: the one
 * `editTool` chose for the model (edit-tool.ts), unless only the other is there (an agent's
 * `tools` left it out). A call to a tool not offered is still judged — and denied — like any
 * other, so the ledger says why.
 */
export function decideToolsOffered(input: {
  tools: readonly Tool[];
  authority: AuthorityContext;
  policy: readonly Rule[];
  /** False in a mode that runs no tools (chat). */
  modeRunsTools: boolean;
  /** False when the model takes no tools at all (its catalog entry or config says so). */
  modelTakesTools: boolean;
  /** Who said it takes none, and how: bosun's catalog (code) or config. */
  noTools?: { holder: "config" | "code"; detail: string };
  /** Whose own web search the model's provider runs (model/native-search.ts); none: a native tool is not sent. */
  nativeSearch?: "anthropic" | "openai";
  /** Which of edit and apply_patch the model is offered (edit-tool.ts); unset, both that are there. */
  editTool?: EditToolChoice;
}): ToolsOffered {
  const reasons: Reason[] = [];
  if (!input.modeRunsTools || !input.modelTakesTools) {
    const why = !input.modeRunsTools
      ? `mode ${input.authority.mode.name} runs no tools`
      : (input.noTools?.detail ?? "the model does not take tools (its catalog entry or config says so)");
    return {
      offered: [],
      decision: {
        seat: "context.tools",
        holder: !input.modeRunsTools ? input.authority.mode.holder : (input.noTools?.holder ?? "config"),
        answer: [],
        reasons: [{ rule: "no tools", detail: why, decisive: true }],
      },
    };
  }
  // The evaluator's own layer order and rule sets (a delegate's every one), then the policy.
  const deniedOutright = outrightDenial(input.authority.rules, {
    workspace: input.authority.workspace,
    home: input.authority.home,
    policy: input.policy,
  });
  const offered: Tool[] = [];
  const swapped = editToolLeftOut(input.tools, input.editTool);
  // Code's defaults hold unless config chose the edit tool, or a rule or the policy hid a tool.
  let holder: Holder = swapped?.holder === "config" ? "config" : "code";
  if (swapped) reasons.push(swapped.reason);
  for (const tool of input.tools) {
    const action = actionOf(tool);
    if (tool === swapped?.tool) {
      reasons.push({ rule: "not offered", detail: `${tool.name}: ${swapped.instead} is offered instead` });
      continue;
    }
    if (tool.unusable) {
      reasons.push({ rule: "not offered", detail: `${tool.name}: ${tool.unusable}` });
      continue;
    }
    if (input.authority.readOnly && (tool.kind === "edit" || (tool.kind === "mcp" && tool.mcp?.readOnly !== true))) {
      reasons.push({
        rule: "not offered",
        detail: `${tool.name}: agent ${input.authority.readOnly.agent} is read-only`,
        source: input.authority.readOnly.source ?? "built-in",
      });
      continue;
    }
    const native = tool.native ? nativeRefusal(tool, input) : undefined;
    if (native) {
      reasons.push(native);
      continue;
    }
    const resource = tool.mcp?.resource;
    const deny = deniedOutright(action, resource);
    if (deny) {
      holder = deny.source.layer === "policy" ? "policy" : "config";
      reasons.push({
        rule: "not offered",
        detail: `${tool.name}: every ${action} request is denied`,
        source: deny.source.file ?? deny.source.layer,
        key: deny.source.key,
        ...(deny.source.line ? { line: deny.source.line } : {}),
      });
      continue;
    }
    offered.push(tool);
  }
  const hidden = input.tools.length - offered.length - (swapped ? 1 : 0);
  reasons.unshift({
    rule: hidden > 0 ? "offered, but for those denied outright" : "all offered",
    detail: offered.map((tool) => tool.name).join(", ") || "none",
    decisive: true,
  });
  return {
    offered,
    decision: {
      seat: "context.tools",
      holder,
      answer: offered.map((t) => t.name),
      reasons,
    },
  };
}

/**
 * Why a provider-run tool (the native web search) is not sent: the model's provider has none, or
 * the rules do not allow its request outright — the provider runs each search before bosun sees
 * it, so an ask could never be put to anyone.
 */
function nativeRefusal(
  tool: Tool,
  input: { authority: AuthorityContext; policy: readonly Rule[]; nativeSearch?: "anthropic" | "openai" },
): Reason | undefined {
  if (!input.nativeSearch) {
    return {
      rule: "not offered",
      detail: `${tool.name}: the model's provider runs no web search bosun can send (Anthropic, OpenAI Responses)`,
    };
  }
  const requests = [{ action: "web" as const, resource: "search" }];
  const { workspace, home } = input.authority;
  const policy = policyDenials(requests, input.policy, { workspace, home })[0];
  if (policy) {
    return {
      rule: "not offered",
      detail: `${tool.name}: web:search denied by policy rule "${policy.rule.pattern}"`,
      source: policy.rule.source.file ?? "policy",
    };
  }
  const answer = authorize({ requests }, input.authority);
  if (answer.answer === "allow") return undefined;
  const decisive = answer.reasons.find((r) => r.decisive) ?? answer.reasons[0];
  return {
    rule: "not offered",
    detail: `${tool.name}: web:search is ${answer.answer === "deny" ? "denied" : "not allowed outright (it asks)"}, and the provider runs each search before anyone could be asked`,
    ...(decisive?.source ? { source: decisive.source } : {}),
  };
}

/**
 * The one of edit and apply_patch not offered, and why: the one not chosen, when the chosen one is
 * there; when only one of them is there, it is offered whatever the choice (an agent narrowed its tools).
 */
function editToolLeftOut(
  tools: readonly Tool[],
  choice: EditToolChoice | undefined,
): { tool: Tool; instead: string; reason: Reason; holder: Holder } | undefined {
  if (!choice) return undefined;
  const builtin = (name: string) => tools.find((t) => t.name === name && t.kind === "edit");
  const chosen = builtin(choice.tool);
  const other = builtin(EDIT_TOOLS.find((name) => name !== choice.tool) as string);
  if (!chosen || !other) return undefined;
  return { tool: other, instead: chosen.name, reason: choice.reason, holder: choice.holder };
}
