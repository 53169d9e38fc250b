import type { Answer, Reason } from "../contracts/decisions.js";
import type { AuthorityContext } from "../permission/gate/authorize.js";
import { ruleSetsOf } from "../permission/rules/intersect.js";

/*
 * The pure deciders of delegation: what a delegate may use, which model it gets, and the
 * authority it holds, axis by axis. runtime/delegate-child.ts asks them and records the answers
 * in the delegate's own ledger (seats delegate.model, delegate.authority).
 */

/**
 * Whether a tool name matches an agent's `tools` entry: the name itself, or a `*` glob
 * (`mcp__github__*`). `edit` names apply_patch too: the same change in the format some models
 * write (context/edit-tool.ts), so an agent listing edit keeps it whichever its model is offered.
 */
export function toolMatches(pattern: string, name: string): boolean {
  if (pattern === "edit" && name === "apply_patch") return true;
  if (!pattern.includes("*")) return pattern === name;
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`).test(name);
}

/**
 * The delegate's tools: its parent's, narrowed to the agent's `tools` list when it has one —
 * never one the parent lacks, whatever the list names (and what the parent may not use, the
 * intersected rules deny the delegate too). `task` only while the depth allows a further delegate.
 */
export function delegateTools(input: {
  parentTools: readonly string[];
  agentTools?: readonly string[];
  agentToolsSource?: string;
  mayDelegate: boolean;
}): { tools: string[]; reasons: Reason[] } {
  const reasons: Reason[] = [];
  let tools = [...input.parentTools];
  if (input.agentTools) {
    const listed = input.agentTools;
    tools = tools.filter((name) => listed.some((pattern) => toolMatches(pattern, name)));
    const unmatched = listed.filter((pattern) => !input.parentTools.some((name) => toolMatches(pattern, name)));
    reasons.push({
      rule: "the agent's tools",
      detail: `${listed.join(", ")}${unmatched.length > 0 ? ` (not the parent's, so not the delegate's: ${unmatched.join(", ")})` : ""}`,
      ...(input.agentToolsSource ? { source: input.agentToolsSource } : {}),
    });
  }
  if (!input.mayDelegate && tools.includes("task")) {
    tools = tools.filter((name) => name !== "task");
    reasons.push({ rule: "delegate.max_depth", detail: "task left out: the depth allows no further delegate" });
  }
  return { tools, reasons };
}

/**
 * Seat `delegate.model`: the agent's own model (config: its file or bosun.json says so), else the
 * parent's — the delegate inherits the model the parent runs on, fallbacks included.
 */
export function decideDelegateModel(input: {
  agent: string;
  agentModel?: string;
  agentModelSource?: string;
  parentModel: string;
}): Answer<string> {
  if (input.agentModel) {
    return {
      holder: "config",
      answer: input.agentModel,
      reasons: [
        {
          rule: "the agent's model",
          detail: `${input.agent}: ${input.agentModel}`,
          ...(input.agentModelSource ? { source: input.agentModelSource } : {}),
          decisive: true,
        },
        { rule: "the parent's model", detail: `${input.parentModel} (not used)` },
      ],
    };
  }
  return {
    holder: "code",
    answer: input.parentModel,
    reasons: [
      { rule: "the agent names no model", detail: input.agent },
      { rule: "the parent's model", detail: input.parentModel, decisive: true },
    ],
  };
}

/**
 * Seat `delegate.authority`: the delegate's authority, as permission/rules/delegate.ts computed
 * it, explained on every axis — rules, mode, read-only, tools, workspace, the guards no agent
 * chooses, depth and step budget. Holder code: the intersection is bosun's rule, not a choice.
 */
export function describeDelegateAuthority(input: {
  parentAgent: string;
  agent: string;
  parent: AuthorityContext;
  own: AuthorityContext;
  result: AuthorityContext;
  tools: { tools: string[]; reasons: Reason[] };
  depth: number;
  maxDepth: number;
  maxSteps: number;
  maxStepsSource: string;
}): Answer<string> {
  const { parent, own, result } = input;
  const readOnlyBy = parent.readOnly
    ? `inherited from ${input.parentAgent}, which is read-only`
    : own.readOnly
      ? `${input.agent} is read-only (${own.readOnly.source ?? "built-in"})`
      : "neither is read-only";
  return {
    holder: "code",
    // One line a person reads at a glance; each axis is a reason below.
    answer: [
      result.mode.name,
      ...(result.readOnly ? ["read-only"] : []),
      `${input.tools.tools.length} tools`,
      `depth ${input.depth}/${input.maxDepth}`,
      `${input.maxSteps} steps`,
    ].join(" · "),
    reasons: [
      {
        rule: "rules",
        detail: `every call must pass the parent's rules and the agent's (${ruleSetsOf(result.rules)
          .map((set) => set.label)
          .join(", ")}: the strictest answer wins)`,
        decisive: true,
      },
      {
        rule: "mode",
        detail: `${result.mode.name}: the stricter of the parent's ${parent.mode.name} and ${input.agent}'s ${own.mode.name}`,
      },
      { rule: "read-only", detail: result.readOnly ? `yes: ${readOnlyBy}` : "no: neither is read-only" },
      { rule: "tools", detail: `${input.tools.tools.join(", ") || "none"} (a subset of the parent's)` },
      ...input.tools.reasons,
      { rule: "workspace", detail: `the parent's: ${result.workspace}` },
      {
        rule: "guards",
        detail: `protected files, bosun's own data${result.ownData ? ` (${result.ownData})` : ""} and config${result.ownConfig ? ` (${result.ownConfig})` : ""} folders and the policy hold as in the parent`,
      },
      { rule: "depth", detail: `${input.depth} of at most ${input.maxDepth}`, source: "delegate.max_depth" },
      { rule: "step budget", detail: `${input.maxSteps} steps`, source: input.maxStepsSource },
    ],
  };
}
