import type { AuthorityContext } from "./authorize.js";
import { intersect } from "./intersect.js";
import type { ModeName } from "./modes.js";

/** How much a mode lets through without a person: a delegate never runs in a looser one than its parent. */
const MODE_LOOSENESS: Readonly<Record<ModeName, number>> = { auto: 3, smart: 2, approve: 1, chat: 0 };

/**
 * The authority of a delegate that `parent` starts with the delegate's own `child` context: never
 * more than the parent's, on every axis. Rules: both rule sets must allow (intersect.ts). Mode:
 * the stricter of the two (an approve parent cannot start an auto delegate). Read-only: if
 * either is, the delegate is — a plan agent's delegates are read-only too, whatever they are.
 * Workspace and cwd: the parent's; a delegate does not get to widen where it works.
 */
export function delegateAuthority(
  parent: AuthorityContext,
  child: AuthorityContext,
  labels: { parent?: string; child?: string } = {},
): AuthorityContext {
  const mode = MODE_LOOSENESS[child.mode.name] < MODE_LOOSENESS[parent.mode.name] ? child.mode : parent.mode;
  const readOnly = parent.readOnly ?? child.readOnly;
  return {
    rules: intersect(parent.rules, child.rules, labels),
    mode,
    ...(readOnly ? { readOnly } : {}),
    cwd: parent.cwd,
    workspace: parent.workspace,
    home: parent.home,
  };
}
