import { UsageError } from "../../errors.js";
import { listApprovals, revokeApprovals, type SavedApproval } from "../../store/saved-approvals.js";
import { listTrusted, revokeTrusted, type TrustedProject } from "../../store/trusted-projects.js";
import { workspaceOf } from "../../util/repo.js";
import { formatTable } from "../../util/table.js";
import { isoTime, json, out } from "../output.js";
import { READ_ONLY, withStore } from "./store.js";

/**
 * `bosun permissions list|revoke`: what the person saved, per project (the workspace: the
 * repository root, else the directory) — "always" approvals (ids 1, 2, ...), which only ever turn
 * an ask into allow, and trust in a repository's own loosening settings (ids t1, t2, ...).
 */

function approvalJson(a: SavedApproval) {
  return {
    id: String(a.id),
    project: a.project,
    rule: `${a.action}:${a.pattern}`,
    action: a.action,
    pattern: a.pattern,
    tool: a.tool,
    session: a.sessionId,
    created: isoTime(a.created),
  };
}

function trustJson(t: TrustedProject) {
  return {
    id: `t${t.id}`,
    project: t.project,
    rule: "trust",
    trusts: t.items,
    fingerprint: t.fingerprint,
    created: isoTime(t.created),
  };
}

export function listPermissions(options: { all?: boolean; json?: boolean }): void {
  const project = options.all ? undefined : workspaceOf(process.cwd());
  withStore((store) => {
    const approvals = listApprovals(store, project);
    const trusted = listTrusted(store, project);
    if (options.json) return json([...approvals.map(approvalJson), ...trusted.map(trustJson)]);
    if (approvals.length === 0 && trusted.length === 0) {
      return out(project ? `no saved approvals for ${project} (--all lists every project's)` : "no saved approvals");
    }
    const rows = [
      ...approvals.map((a) => ({
        cells: [String(a.id), `allow ${a.action}:${a.pattern}`, isoTime(a.created), a.tool ?? "-"],
        project: a.project,
      })),
      ...trusted.map((t) => ({
        cells: [`t${t.id}`, `trust the repository's ${t.items.join("; ")}`, isoTime(t.created), "-"],
        project: t.project,
      })),
    ];
    const header = project ? ["ID", "RULE", "SAVED", "TOOL"] : ["ID", "PROJECT", "RULE", "SAVED", "TOOL"];
    out(
      formatTable(
        header,
        rows.map((r) => (project ? r.cells : [r.cells[0] as string, r.project, ...r.cells.slice(1)])),
      ),
    );
  }, READ_ONLY);
}

export function revokePermissions(ids: string[]): void {
  const project = workspaceOf(process.cwd());
  withStore((store) => {
    for (const id of ids) {
      if (id !== "all" && !/^t?\d+$/.test(id)) {
        throw new UsageError(`"${id}" is not a saved approval id (see bosun permissions list), nor "all"`);
      }
    }
    const all = ids.length === 1 && ids[0] === "all";
    const approvalIds = all
      ? listApprovals(store, project).map((a) => a.id)
      : ids.filter((id) => !id.startsWith("t")).map(Number);
    const trustIds = all
      ? listTrusted(store, project).map((t) => t.id)
      : ids.filter((id) => id.startsWith("t")).map((id) => Number(id.slice(1)));
    const revoked = revokeApprovals(store, approvalIds);
    const untrusted = revokeTrusted(store, trustIds);
    for (const a of revoked) out(`revoked ${a.id}: allow ${a.action}:${a.pattern} (${a.project})`);
    for (const t of untrusted) out(`revoked t${t.id}: trust in ${t.items.join("; ")} (${t.project})`);
    if (approvalIds.length === 0 && trustIds.length === 0) out(`no saved approvals for ${project}`);
    const missing = [
      ...approvalIds.filter((id) => !revoked.some((a) => a.id === id)).map(String),
      ...trustIds.filter((id) => !untrusted.some((t) => t.id === id)).map((id) => `t${id}`),
    ];
    if (missing.length > 0) {
      throw new UsageError(`no saved approval with id ${missing.join(", ")} (see bosun permissions list --all)`);
    }
  });
}
