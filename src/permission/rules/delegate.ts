import type { ModeName } from "../../contracts/modes.js";
import type { AuthorityContext } from "../gate/authorize.js";
import { intersect, mapRuleSets } from "./intersect.js";
import { sharedRules, withSharedRules } from "./layers.js";

/** How much a mode lets through without a person: a delegate never runs in a looser one than its parent. */
const MODE_LOOSENESS: Readonly<Record<ModeName, number>> = { auto: 3, smart: 2, approve: 1, chat: 0 };

/**
 * The authority of a delegate that `parent` starts with the delegate's own `child` context: never
 * more than the parent's, on every axis. Rules: both rule sets must allow (intersect.ts). Mode:
 * the stricter of the two (an approve parent cannot start an auto delegate). Read-only: if
 * either is, the delegate is — a plan agent's delegates are read-only too, whatever they are.
 * Workspace and cwd: the parent's; a delegate does not get to widen where it works.
 *
 * What no agent chooses holds in the delegate as in the parent. bosun's own data folder stays
 * out of every tool's reach (authorize.ts), whichever side names it. The delegate's rule set gets
 * the parent's built-in layer (defaults, bosun's own folders) and the person's saved approvals
 * (layers.ts, sharedRules): a saved approval is the person's word for this project, not the
 * parent agent's, so it counts in the delegate's set as in any — it never lifts a rule the
 * delegate's own config writes (evaluate.ts), and since the delegate's answer is the strictest of
 * its sets, it can only let the delegate do what the parent, under the same approval, may. The
 * delegate's own saved approvals do not reach the parent's set.
 */
export function delegateAuthority(
  parent: AuthorityContext,
  child: AuthorityContext,
  labels: { parent?: string; child?: string } = {},
): AuthorityContext {
  const mode = MODE_LOOSENESS[child.mode.name] < MODE_LOOSENESS[parent.mode.name] ? child.mode : parent.mode;
  const readOnly = parent.readOnly ?? child.readOnly;
  if (parent.ownData && child.ownData && parent.ownData !== child.ownData) {
    // One process has one BOSUN_HOME: two data folders mean the contexts were built wrong.
    throw new TypeError(
      `delegateAuthority: the parent's data folder ${parent.ownData} is not the delegate's ${child.ownData}`,
    );
  }
  const ownData = parent.ownData ?? child.ownData;
  const ownConfig = parent.ownConfig ?? child.ownConfig;
  const shared = sharedRules(parent.rules);
  return {
    rules: intersect(
      parent.rules,
      mapRuleSets(child.rules, (layers) => withSharedRules(layers, shared)),
      labels,
    ),
    mode,
    ...(readOnly ? { readOnly } : {}),
    cwd: parent.cwd,
    workspace: parent.workspace,
    home: parent.home,
    ...(ownData ? { ownData } : {}),
    ...(ownConfig ? { ownConfig } : {}),
  };
}
