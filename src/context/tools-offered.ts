import type { AuthorityContext } from "../permission/authorize.js";
import { type MatchContext, matchResource } from "../permission/match.js";
import type { Action } from "../permission/requests.js";
import { isCatchAll, layerRank, type Rule } from "../permission/rules.js";
import type { Decision, Holder, Reason } from "../seats/types.js";
import type { Tool } from "../tools/types.js";

/** The action every call of a tool makes, by its kind (MCP tools and skills name their own). */
function actionOf(tool: Pick<Tool, "kind" | "name">): Action {
  if (tool.name === "skill") return "skill";
  if (tool.kind === "shell") return "shell";
  if (tool.kind === "edit") return "edit";
  if (tool.kind === "mcp") return "mcp";
  return "read";
}

/**
 * The deny that settles an action for every call of a tool: a deny for all its resources (`*`,
 * or the one resource an MCP tool always names) after which no rule that could match allows or
 * asks. Undefined when some call could still pass.
 */
function outrightDeny(
  rules: readonly Rule[],
  action: Action,
  resource: string | undefined,
  ctx: MatchContext,
): Rule | undefined {
  const covers = (rule: Rule) =>
    isCatchAll(action, rule.pattern) || (resource !== undefined && matchResource(action, rule.pattern, resource, ctx));
  const ordered = rules
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.action === action)
    .sort((a, b) => layerRank(a.rule.source.layer) - layerRank(b.rule.source.layer) || a.index - b.index)
    .map(({ rule }) => rule);
  let last = -1;
  ordered.forEach((rule, index) => {
    if (rule.effect === "deny" && rule.when === undefined && covers(rule)) last = index;
  });
  if (last < 0) return undefined;
  // Without a fixed resource any later allow or ask may match some call; with one, only those that match it.
  const reopens = ordered
    .slice(last + 1)
    .some((rule) => rule.effect !== "deny" && (resource === undefined || covers(rule)));
  return reopens ? undefined : ordered[last];
}

function ruleSets(authority: AuthorityContext): Rule[][] {
  const rules = authority.rules;
  return Array.isArray(rules) ? [rules.flat()] : rules.sets.map((set) => set.layers.flat());
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
 * in a mode that runs no tools, none is. A call to a tool not offered is still judged — and
 * denied — like any other, so the ledger says why.
 */
export function decideToolsOffered(input: {
  tools: readonly Tool[];
  authority: AuthorityContext;
  policy: readonly Rule[];
  /** False in a mode that runs no tools (chat). */
  modeRunsTools: boolean;
  /** False when the model takes no tools at all (its catalog entry says so). */
  modelTakesTools: boolean;
}): ToolsOffered {
  const reasons: Reason[] = [];
  if (!input.modeRunsTools || !input.modelTakesTools) {
    const why = !input.modeRunsTools
      ? `mode ${input.authority.mode.name} runs no tools`
      : "the model does not take tools (its catalog entry says so)";
    return {
      offered: [],
      decision: {
        seat: "context.tools",
        holder: !input.modeRunsTools ? input.authority.mode.holder : "config",
        answer: [],
        reasons: [{ rule: "no tools", detail: why, decisive: true }],
      },
    };
  }
  const sets = ruleSets(input.authority);
  const offered: Tool[] = [];
  let holder: Holder = "code";
  for (const tool of input.tools) {
    const action = actionOf(tool);
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
    const resource = tool.mcp?.resource;
    const ctx = { workspace: input.authority.workspace, home: input.authority.home };
    const deny = [...sets, input.policy]
      .map((rules) => outrightDeny(rules, action, resource, ctx))
      .find((rule) => rule !== undefined);
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
  const hidden = input.tools.length - offered.length;
  reasons.unshift({
    rule: hidden > 0 ? "offered, but for those denied outright" : "all offered",
    detail: offered.map((tool) => tool.name).join(", ") || "none",
    decisive: true,
  });
  return {
    offered,
    decision: {
      seat: "context.tools",
      holder: hidden > 0 ? holder : "code",
      answer: offered.map((t) => t.name),
      reasons,
    },
  };
}
