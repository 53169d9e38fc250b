import { statSync } from "node:fs";
import type { Holder, Reason } from "../seats/types.js";
import { type Confinement, sandboxProblem } from "../tools/sandbox.js";
import type { Tool } from "../tools/types.js";
import { type AuthorityContext, authorize, type PermissionAnswer } from "./authorize.js";
import { type Policy, policyDenials } from "./policy.js";
import { type CallDescription, isInside, type Request, resolveRequestPath } from "./requests.js";

/**
 * Seat `exec.sandbox`: how a shell command that runs only on the strength of a proof (the
 * analysis, a judge, a read-only agent) is confined — so an analysis that is wrong still cannot
 * change, leave or read out more than the rules allow.
 */

/** What the confinement needs of the run. */
export interface ConfineDeps {
  authority: AuthorityContext;
  policy: Policy;
  /** --auto: the person's advance answer to every ask. */
  auto: boolean;
  /** Config `shell.sandbox`, and where it was written. */
  sandbox: "on" | "off";
  sandboxSource?: string;
  /** Folders a confined command may still read under the hidden ones: the workspace, this session's overflow files. */
  visible: string[];
}

export type Proof = "read-only agent" | "proof";

/**
 * Whether a shell call would run only because something proved it read-only: the agent is
 * read-only (every command it may run is one the analysis proved), or the rules' allow rests on
 * the mode's "read-only commands" preset or on the judge. Then it must run confined.
 */
export function reliesOnProof(
  tool: Pick<Tool, "kind">,
  permission: PermissionAnswer,
  authority: AuthorityContext,
): Proof | undefined {
  if (tool.kind !== "shell") return undefined;
  if (authority.readOnly) return "read-only agent";
  if (permission.answer !== "allow") return undefined;
  const shells = permission.outcomes.filter((o) => o.request.action === "shell");
  return shells.some((o) => o.rule?.when === "read-only" || o.holder === "model") ? "proof" : undefined;
}

/** Most protected files a confined command is shown empty; past it, confining fails closed. */
export const MASK_LIMIT = 500;

export interface ConfinementVerdict {
  holder: Holder;
  answer: "read-only" | "workspace-write" | "none" | "unavailable";
  reasons: Reason[];
  confine?: Confinement;
}

/**
 * How to confine a call that relies on a proof. Read-only, unless the rules (not the proof)
 * allowed it to write files in the workspace (`echo x > notes.md` with edits allowed): then the
 * workspace is writable, its `.git` still not. Writing outside the workspace cannot be confined:
 * it runs as the rules allowed, unconfined, and that is recorded. Where bubblewrap cannot run,
 * or the files to hide cannot all be hidden, the answer is unavailable: the caller asks (or,
 * for a read-only agent, denies).
 */
export async function confinementFor(
  proof: Proof,
  description: CallDescription,
  deps: ConfineDeps,
): Promise<ConfinementVerdict> {
  const why =
    proof === "read-only agent"
      ? `the agent ${deps.authority.readOnly?.agent} is read-only`
      : "it runs only because it was proven (or judged) read-only";
  if (deps.sandbox === "off") {
    return {
      holder: "config",
      answer: "none",
      reasons: [
        {
          rule: "shell.sandbox off",
          detail: `${why}; the analysis alone is trusted`,
          source: deps.sandboxSource ?? "shell.sandbox",
          key: "shell.sandbox",
          decisive: true,
        },
      ],
    };
  }
  const unavailable = (problem: string): ConfinementVerdict => ({
    holder: "code",
    answer: "unavailable",
    reasons: [
      {
        rule: "no sandbox",
        detail: `${why}, so it must run confined, and it cannot be here (${problem}): ${
          proof === "read-only agent" ? "denied" : "it asks instead"
        }`,
        decisive: true,
      },
    ],
  });
  const problem = await sandboxProblem();
  if (problem)
    return unavailable(`${problem}; install bubblewrap, or set shell.sandbox to "off" to trust the analysis alone`);

  const edits = description.requests.filter((r) => r.action === "edit");
  const { workspace } = deps.authority;
  if (edits.some((e) => e.resource === "*" || !isInside(e.resource, workspace))) {
    return {
      holder: "code",
      answer: "none",
      reasons: [
        {
          rule: "writes outside the workspace",
          detail: `${why}, but it also writes where the rules allowed outside the workspace, which no confinement can keep: it runs unconfined`,
          decisive: true,
        },
      ],
    };
  }
  const hidden = await unreadableFiles(deps);
  if (hidden.problem) return unavailable(hidden.problem);
  const kind = edits.length > 0 ? "workspace-write" : "read-only";
  const masked = hidden.files.length > 0 ? { masked: hidden.files } : {};
  return {
    holder: "code",
    answer: kind,
    reasons: [
      {
        rule: "confined",
        detail:
          kind === "read-only"
            ? `${why}: read-only file system, no network, home folders and /tmp hidden but for the workspace`
            : `${why}, but for the files the rules let it write: only the workspace writable (not its .git), no network, home folders and /tmp hidden`,
        decisive: true,
      },
      ...(hidden.files.length > 0 ? [{ rule: "shown empty", detail: hidden.files.join(", ") }] : []),
    ],
    confine: { kind, visible: deps.visible, ...masked },
  };
}

/**
 * The workspace's files the rules do not let the model read without asking (`.env`, by the
 * built-in rules): a confined command sees them empty, whatever route it reads them by
 * (`cat .en?`, `grep -r`, `find -exec cat`). Found by globbing the patterns of the read rules
 * that ask or deny (outside node_modules), then kept only if the rules really refuse them. A
 * problem when there are too many to hide, or one has other names (a hard link) that a mask by
 * name would miss.
 */
export async function unreadableFiles(
  deps: ConfineDeps & { limitless?: boolean },
): Promise<{ files: string[]; problem?: string }> {
  const { workspace } = deps.authority;
  const layers = Array.isArray(deps.authority.rules)
    ? deps.authority.rules
    : deps.authority.rules.sets.flatMap((set) => set.layers);
  const patterns = new Set<string>();
  for (const rule of [...layers.flat(), ...deps.policy.rules]) {
    if (rule.action !== "read" || rule.effect === "allow" || rule.pattern === "*") continue;
    const relative = rule.pattern.startsWith(`${workspace}/`) ? rule.pattern.slice(workspace.length + 1) : rule.pattern;
    if (!relative.startsWith("/") && !relative.startsWith("~")) patterns.add(relative);
  }
  if (patterns.size === 0) return { files: [] };
  const { glob } = await import("tinyglobby");
  const found = await glob([...patterns], {
    cwd: workspace,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: ["**/node_modules/**", "**/.git/**"],
  }).catch(() => [] as string[]);
  const files = found.filter((file) => !mayReadFound(deps, file));
  if (deps.limitless) return { files };
  if (files.length > MASK_LIMIT) {
    return { files: [], problem: `${files.length} files the rules protect, more than the ${MASK_LIMIT} it can hide` };
  }
  const linked = files.find((file) => {
    try {
      return statSync(file).nlink > 1;
    } catch {
      return false;
    }
  });
  if (linked) return { files: [], problem: `${linked} has other names (hard links) that hiding it by name would miss` };
  return { files };
}

/**
 * Whether the model may be shown `path`, found by a tool itself (grep over a folder) rather than
 * named in the call: the rules allow it; or they would ask, and the call's own approval covers
 * it (a person allowed reading the folder it lies in, or --auto answers every ask); never when
 * a rule or the policy denies it.
 */
export function mayReadFound(
  deps: Pick<ConfineDeps, "authority" | "policy" | "auto">,
  path: string,
  approved: readonly string[] = [],
): boolean {
  let resolved: string;
  try {
    resolved = resolveRequestPath(path, "/");
  } catch {
    return false;
  }
  const requests: Request[] = [{ action: "read", resource: resolved }];
  if (!isInside(resolved, deps.authority.workspace))
    requests.push({ action: "external_directory", resource: resolved });
  const ctx = { workspace: deps.authority.workspace, home: deps.authority.home };
  if (policyDenials(requests, deps.policy.rules, ctx).length > 0) return false;
  const answer = authorize({ requests }, deps.authority).answer;
  if (answer === "allow") return true;
  if (answer === "deny") return false;
  return deps.auto || approved.some((folder) => isInside(resolved, folder));
}

/**
 * A read the rules allow of a file that is another name (a hard link) of a file they protect
 * (`docs/notes.txt` linked to `.env`) asks, as a read of that file would. Only files with more
 * than one name are looked at, so this costs nothing for ordinary files.
 */
export async function guardHardLinks(permission: PermissionAnswer, deps: ConfineDeps): Promise<PermissionAnswer> {
  if (permission.answer !== "allow") return permission;
  const linked = permission.outcomes.filter((o) => {
    if (o.request.action !== "read" || o.request.resource === "*") return false;
    try {
      const info = statSync(o.request.resource);
      return info.isFile() && info.nlink > 1;
    } catch {
      return false;
    }
  });
  if (linked.length === 0) return permission;
  const inode = (path: string) => {
    const info = statSync(path);
    return `${info.dev}:${info.ino}`;
  };
  const guarded = new Set((await protectedNames(deps)).map(inode));
  const hit = linked.find((o) => guarded.has(inode(o.request.resource)));
  if (!hit) return permission;
  return {
    ...permission,
    answer: "ask",
    holder: "code",
    reasons: [
      {
        rule: `read:${hit.request.resource}`,
        detail: "ask — another name (a hard link) of a file the read rules protect",
        decisive: true,
      },
      ...permission.reasons.map(({ decisive: _, ...reason }) => reason),
    ],
  };
}

/** The protected files, whatever their number (for comparing inodes, not for masking). */
async function protectedNames(deps: ConfineDeps): Promise<string[]> {
  const found = await unreadableFiles({ ...deps, limitless: true });
  return found.files;
}
