import type { CallDescription } from "../../contracts/requests.js";
import { PathResolutionError, resolveRequestPath, UNKNOWN_PATH } from "../../permission/rules/requests.js";
import { describeError } from "../paths.js";

/** Where one of a patch's files must be written: a judged path, where it leads now instead, or why not at all. */
export type PatchTarget = { target: string } | { leadsTo: string } | { problem: string };

/**
 * Where a write of `path` by a call that changes several files must land: one of the `edit:`
 * paths the gate judged for it, as long as `path` still resolves there (paths.ts's
 * approvedTarget, for a call with more than one). Without a judged description (a tool run
 * directly, or a preview), where it resolves now.
 */
export function patchTarget(judged: CallDescription | undefined, cwd: string, path: string): PatchTarget {
  let now: string;
  try {
    now = resolveRequestPath(path, cwd);
  } catch (error) {
    const why = error instanceof PathResolutionError ? error.message : describeError(error);
    return { problem: `the path cannot be resolved (${why})` };
  }
  if (!judged) return { target: now };
  const edits = judged.requests.filter((r) => r.action === "edit").map((r) => r.resource);
  if (edits.includes(now)) return { target: now };
  if (edits.length === 0 || edits.includes(UNKNOWN_PATH)) return { problem: "it was not approved for editing" };
  return { leadsTo: now };
}
