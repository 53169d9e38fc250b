import { listApprovals } from "../../store/saved-approvals.js";
import type { SessionStore } from "../../store/session-store.js";
import type { Rule } from "./rules.js";

/** A project's saved approvals as rules of the `saved` layer, each naming its id. */
export function savedRules(store: SessionStore, project: string): Rule[] {
  return listApprovals(store, project).map((approval) => ({
    action: approval.action,
    pattern: approval.pattern,
    effect: "allow",
    source: { layer: "saved", file: "saved approvals", key: `#${approval.id} ${approval.action}:${approval.pattern}` },
  }));
}
