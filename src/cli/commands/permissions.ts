import { UsageError } from "../../errors.js";
import { listApprovals, revokeApprovals, type SavedApproval } from "../../store/saved-approvals.js";
import { workspaceOf } from "../../util/repo.js";
import { formatTable } from "../../util/table.js";
import { isoTime, json, out } from "../output.js";
import { withStore } from "./store.js";

/**
 * `bosun permissions list|revoke`: the person's saved "always" approvals, per project (the
 * workspace: the repository root, else the directory). They only ever turn an ask into allow.
 */

function approvalJson(a: SavedApproval) {
  return {
    id: a.id,
    project: a.project,
    rule: `${a.action}:${a.pattern}`,
    action: a.action,
    pattern: a.pattern,
    tool: a.tool,
    session: a.sessionId,
    created: isoTime(a.created),
  };
}

export function listPermissions(options: { all?: boolean; json?: boolean }): void {
  const project = options.all ? undefined : workspaceOf(process.cwd());
  withStore((store) => {
    const approvals = listApprovals(store, project);
    if (options.json) return json(approvals.map(approvalJson));
    if (approvals.length === 0) {
      return out(project ? `no saved approvals for ${project} (--all lists every project's)` : "no saved approvals");
    }
    const header = project ? ["ID", "RULE", "SAVED", "TOOL"] : ["ID", "PROJECT", "RULE", "SAVED", "TOOL"];
    const rows = approvals.map((a) => {
      const cells = [String(a.id), `allow ${a.action}:${a.pattern}`, isoTime(a.created), a.tool ?? "-"];
      return project ? cells : [cells[0] as string, a.project, ...cells.slice(1)];
    });
    out(formatTable(header, rows));
  });
}

export function revokePermissions(ids: string[]): void {
  const project = workspaceOf(process.cwd());
  withStore((store) => {
    let targets: number[];
    if (ids.length === 1 && ids[0] === "all") {
      targets = listApprovals(store, project).map((a) => a.id);
    } else {
      targets = ids.map((id) => {
        if (!/^\d+$/.test(id))
          throw new UsageError(`"${id}" is not a saved approval id (see bosun permissions list), nor "all"`);
        return Number(id);
      });
    }
    const revoked = revokeApprovals(store, targets);
    const missing = targets.filter((id) => !revoked.some((a) => a.id === id));
    for (const a of revoked) out(`revoked ${a.id}: allow ${a.action}:${a.pattern} (${a.project})`);
    if (targets.length === 0) out(`no saved approvals for ${project}`);
    if (missing.length > 0)
      throw new UsageError(`no saved approval with id ${missing.join(", ")} (see bosun permissions list --all)`);
  });
}
