import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { Confinement } from "../../contracts/confinement.js";
import type { Holder, Reason } from "../../contracts/decisions.js";
import type { CallDescription, Request } from "../../contracts/requests.js";
import type { Tool } from "../../contracts/tools.js";
import { STRICTNESS } from "../rules/evaluate.js";
import { ruleSetsOf } from "../rules/intersect.js";
import { type Policy, policyDenials } from "../rules/policy.js";
import { isInside, resolveRequestPath } from "../rules/requests.js";
import { type AuthorityContext, authorize, type PermissionAnswer, summarizeJudged } from "./authorize.js";
import { sandboxProblem } from "./sandbox.js";

/**
 * Seat `exec.sandbox`: how a shell command is confined. One that runs only on the strength of a
 * proof (the analysis, a judge, a read-only agent) runs sealed — so an analysis that is wrong
 * still cannot change, leave or read out more than the rules allow; one someone allowed (a rule,
 * the person, --auto) runs masked — as they would run it, but without the files the read rules
 * protect.
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
  /** bosun's own config and data folders: read-only to a masked command (it runs with the file system as it is). */
  ownState?: string[];
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

/**
 * exec.sandbox's answers: `read-only` and `writes-named` (sealed; the second with exactly the
 * files the rules let it write), `workspace-write` (sealed, a repository's command allowed by
 * name or auto mode), `masked`, `none` (unconfined, and why), `unavailable` (it must be
 * confined and cannot be: the caller asks, or denies), `denied` (it must not run at all).
 */
export type SandboxAnswer =
  | "read-only"
  | "writes-named"
  | "workspace-write"
  | "masked"
  | "none"
  | "unavailable"
  | "denied";

export interface ConfinementVerdict {
  holder: Holder;
  answer: SandboxAnswer;
  reasons: Reason[];
  confine?: Confinement;
}

function verdict(answer: SandboxAnswer, rule: string, detail: string, extra: Partial<ConfinementVerdict> = {}) {
  return { holder: "code" as Holder, answer, reasons: [{ rule, detail, decisive: true }], ...extra };
}

/** shell.sandbox off: the person's config trusts the analysis (and their own approvals) alone. */
function sandboxOff(deps: ConfineDeps, why: string): ConfinementVerdict {
  return {
    holder: "config",
    answer: "none",
    reasons: [
      {
        rule: "shell.sandbox off",
        detail: `${why}; shell.sandbox is off: it runs unconfined`,
        source: deps.sandboxSource ?? "shell.sandbox",
        key: "shell.sandbox",
        decisive: true,
      },
    ],
  };
}

/**
 * How to confine a call that relies on a proof: sealed, read-only, unless the rules (not the
 * proof) allowed it to write files (`echo x > notes.md` with edits allowed): then exactly those
 * files are writable — a file that does not exist yet, its folder — and nothing else. A write to
 * a path not known before it runs cannot be confined to it: the call runs masked, as an allowed
 * one would. Where bubblewrap cannot run, or the files to hide cannot all be hidden, the answer
 * is unavailable: the caller asks (or, for a read-only agent, denies); when a file the rules deny
 * has other names, denied.
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
  if (deps.sandbox === "off") return sandboxOff(deps, why);
  const unavailable = (problem: string) =>
    verdict(
      "unavailable",
      "no sandbox",
      `${why}, so it must run confined, and it cannot be here (${problem}): ${proof === "read-only agent" ? "denied" : "it asks instead"}`,
    );
  const problem = await sandboxProblem();
  if (problem)
    return unavailable(`${problem}; install bubblewrap, or set shell.sandbox to "off" to trust the analysis alone`);

  const edits = description.requests.filter((r) => r.action === "edit");
  if (edits.some((e) => e.resource === "*")) {
    const masked = await maskingFor(description, deps);
    return {
      ...masked,
      reasons: [
        {
          rule: "writes a path not known before it runs",
          detail: `${why}, but it also writes a file the rules allowed whose path is known only when it runs: it runs masked, as an allowed command would`,
        },
        ...masked.reasons,
      ],
    };
  }
  const hidden = await unreadableFiles(deps);
  if (hidden.deny) return verdict("denied", "hard link", `${hidden.problem}: a file the rules deny could be read`);
  if (hidden.problem) return unavailable(hidden.problem);
  const writable = writableFor(edits.map((e) => e.resource));
  const shown: Reason[] = hidden.files.length > 0 ? [{ rule: "shown empty", detail: hidden.files.join(", ") }] : [];
  const confine: Confinement = {
    kind: "sealed",
    visible: deps.visible,
    ...(writable.length > 0 ? { writable } : {}),
    ...(hidden.files.length > 0 ? { masked: hidden.files } : {}),
  };
  const detail =
    writable.length === 0
      ? `${why}: read-only file system, no network, home folders and /tmp hidden but for the workspace`
      : `${why}, but for the files the rules let it write: only ${writable.join(", ")} writable, everything else read-only, no network, home folders and /tmp hidden`;
  const answer = writable.length === 0 ? "read-only" : "writes-named";
  return { holder: "code", answer, reasons: [{ rule: "confined", detail, decisive: true }, ...shown], confine };
}

/**
 * The paths a sealed command may write, from the `edit:` requests the rules allowed: each file
 * that exists; for one that does not, the folder it would be made in (when that exists; else
 * nothing — it cannot be made). A folder or file inside another writable folder adds nothing.
 */
export function writableFor(edits: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const edit of edits) {
    let target: string | undefined;
    try {
      target = statSync(edit).isDirectory() || statSync(edit).isFile() ? edit : undefined;
    } catch {
      const folder = dirname(edit);
      try {
        if (statSync(folder).isDirectory()) target = folder;
      } catch {
        // Its folder does not exist either: nothing to bind, and the command cannot make it.
      }
    }
    if (target) paths.add(target);
  }
  const all = [...paths].sort();
  return all.filter((path) => !all.some((other) => other !== path && isInside(path, other)));
}

/** Commands that change user: a confinement's user namespace would break them, and no mask holds past them. */
const CHANGES_USER = new Set(["sudo", "su", "doas", "pkexec", "run0"]);

/**
 * How to confine a shell call someone allowed — a rule, the person, --auto: masked, so the
 * command runs as they would run it but never sees the files the read rules protect (shown
 * empty), except the ones this call was approved to read (`approved`: the person, or --auto,
 * said yes to reading them) or allowed to write. A file the rules deny that has other names
 * makes the call denied. Where bubblewrap cannot run, or a user change (sudo) would break the
 * confinement, it runs unmasked, said so; where the files cannot all be hidden (too many, an
 * asked-about one with other names) the answer is unavailable: the caller asks, unless a person
 * already approved this very call.
 */
export async function maskingFor(
  description: CallDescription,
  deps: ConfineDeps,
  approved: readonly string[] = [],
  /** A person (or --auto) approved this very call: a mask that cannot be made does not stop it. */
  afterApproval = false,
): Promise<ConfinementVerdict> {
  const why = "it runs because it was allowed";
  if (deps.sandbox === "off") return sandboxOff(deps, why);
  const sudo = description.requests.find(
    (r) => r.action === "shell" && CHANGES_USER.has(r.resource.split(/\s+/)[0] ?? ""),
  );
  if (sudo) {
    return verdict(
      "none",
      "changes user",
      `${why}, and it runs ${sudo.resource.split(/\s+/)[0]}, which a confinement would break: it runs unmasked`,
    );
  }
  const problem = await sandboxProblem("masked");
  if (problem)
    return verdict(
      "none",
      "no sandbox",
      `${why}; protected files cannot be hidden here (${problem}): it runs unmasked`,
    );
  const hidden = await unreadableFiles(deps);
  if (hidden.deny) return verdict("denied", "hard link", `${hidden.problem}: a file the rules deny could be read`);
  if (hidden.problem && afterApproval)
    return verdict("none", "cannot mask", `it was approved, but ${hidden.problem}: it runs unmasked, as approved`);
  if (hidden.problem) return verdict("unavailable", "cannot mask", `${why}, but ${hidden.problem}: it asks instead`);
  // What this call was approved to read (a file, or a folder holding it) or allowed to write is
  // shown — but never a file the rules deny: no approval lifts a deny.
  const written = new Set(description.requests.filter((r) => r.action === "edit").map((r) => r.resource));
  const files = hidden.files.filter(
    (file) =>
      readVerdict(deps, file) === "deny" || (!written.has(file) && !approved.some((path) => isInside(file, path))),
  );
  return {
    holder: "code",
    answer: "masked",
    reasons: [
      {
        rule: "masked",
        detail: `${why}: it runs as it would unconfined, in its own process namespace, ${
          files.length > 0 ? "with the files the read rules protect shown empty" : "and no protected file is in its way"
        }`,
        decisive: true,
      },
      ...(files.length > 0 ? [{ rule: "shown empty", detail: files.join(", ") }] : []),
    ],
    confine: {
      kind: "masked",
      visible: deps.visible,
      ...(files.length > 0 ? { masked: files } : {}),
      ...(deps.ownState ? { readOnly: deps.ownState } : {}),
    },
  };
}

/**
 * The workspace's files the rules do not let the model read without asking (`.env`, by the
 * built-in rules): a confined command sees them empty, whatever route it reads them by
 * (`cat .en?`, `grep -r`, `find -exec cat`). Found by globbing the patterns of the read rules
 * that ask or deny (outside node_modules), then kept only if the rules really refuse them. A
 * problem when there are too many to hide, or one has other names (a hard link) that a mask by
 * name would miss; when that one is a file the rules DENY, `deny` says the command must not run
 * at all (asking would let a person's yes, or --auto, show it).
 */
export async function unreadableFiles(
  deps: ConfineDeps & {
    limitless?: boolean;
    /** Every file the read rules ask about or deny, whatever auto mode or --auto would say yes to (a repository's command). */
    strict?: boolean;
  },
): Promise<{ files: string[]; problem?: string; deny?: true }> {
  const patterns = protectedPatterns(deps);
  if (patterns.size === 0) return { files: [] };
  const { glob } = await import("tinyglobby");
  const found = await glob([...patterns], globOptions(deps.authority.workspace)).catch(() => [] as string[]);
  const judge = deps.strict
    ? {
        ...deps,
        auto: false,
        authority: { ...deps.authority, mode: { ...deps.authority.mode, name: "approve" as const } },
      }
    : deps;
  const files = found.filter((file) => !mayReadFound(judge, file));
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
  if (linked) {
    const denied = readVerdict(deps, linked) === "deny";
    return {
      files: [],
      problem: `${linked} has other names (hard links) that hiding it by name would miss`,
      ...(denied ? { deny: true as const } : {}),
    };
  }
  return { files };
}

/** The workspace-relative patterns of read rules (and policy) that ask or deny. */
function protectedPatterns(deps: Pick<ConfineDeps, "authority" | "policy">): Set<string> {
  const { workspace } = deps.authority;
  const layers = ruleSetsOf(deps.authority.rules).flatMap((set) => set.layers);
  const patterns = new Set<string>();
  for (const rule of [...layers.flat(), ...deps.policy.rules]) {
    if (rule.action !== "read" || rule.effect === "allow" || rule.pattern === "*") continue;
    const relative = rule.pattern.startsWith(`${workspace}/`) ? rule.pattern.slice(workspace.length + 1) : rule.pattern;
    if (!relative.startsWith("/") && !relative.startsWith("~")) patterns.add(relative);
  }
  return patterns;
}

function globOptions(workspace: string) {
  return {
    cwd: workspace,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    ignore: ["**/node_modules/**", "**/.git/**"],
  };
}

/** The rules' answer for reading `path` itself (and leaving the workspace for it), with the policy. */
function readVerdict(deps: Pick<ConfineDeps, "authority" | "policy">, path: string): "allow" | "ask" | "deny" {
  let resolved: string;
  try {
    resolved = resolveRequestPath(path, "/");
  } catch {
    return "deny";
  }
  const requests: Request[] = [{ action: "read", resource: resolved }];
  if (!isInside(resolved, deps.authority.workspace))
    requests.push({ action: "external_directory", resource: resolved });
  const ctx = { workspace: deps.authority.workspace, home: deps.authority.home };
  if (policyDenials(requests, deps.policy.rules, ctx).length > 0) return "deny";
  return authorize({ requests }, deps.authority).answer;
}

/**
 * Whether the model may be shown `path`, found by a tool itself (grep over a folder) rather than
 * named in the call: the rules allow it; or they would ask, and the call's own approval covers
 * it (a person allowed reading the folder it lies in, or --auto answers every ask); never when
 * a rule or the policy denies it. A second name (a hard link) of a file the rules protect is
 * that file.
 */
export function mayReadFound(
  deps: Pick<ConfineDeps, "authority" | "policy" | "auto">,
  path: string,
  approved: readonly string[] = [],
): boolean {
  const may = (file: string) => {
    const answer = readVerdict(deps, file);
    if (answer === "allow") return true;
    if (answer === "deny") return false;
    return deps.auto || approved.some((folder) => isInside(resolveOrSelf(file), folder));
  };
  if (!may(path)) return false;
  const original = protectedOriginal(deps, path);
  return original === undefined || may(original);
}

function resolveOrSelf(path: string): string {
  try {
    return resolveRequestPath(path, "/");
  } catch {
    return path;
  }
}

/**
 * When `path` is a file with more than one name and one of its other names is a workspace file
 * the read rules protect (`docs/notes.txt` linked to `.env`): that file. Only files with more
 * than one name are looked at, so this costs nothing for ordinary files.
 */
export function protectedOriginal(deps: Pick<ConfineDeps, "authority" | "policy">, path: string): string | undefined {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(path);
  } catch {
    return undefined;
  }
  if (!info.isFile() || info.nlink < 2) return undefined;
  const patterns = protectedPatterns(deps);
  if (patterns.size === 0) return undefined;
  let found: string[];
  try {
    // Loaded only when a file with other names is met (rare): not with every run's start.
    const { globSync } = createRequire(import.meta.url)("tinyglobby") as typeof import("tinyglobby");
    found = globSync([...patterns], globOptions(deps.authority.workspace));
  } catch {
    return undefined;
  }
  const self = resolveOrSelf(path);
  return found.find((file) => {
    if (file === self) return false;
    try {
      const other = statSync(file);
      return other.dev === info.dev && other.ino === info.ino && readVerdict(deps, file) !== "allow";
    } catch {
      return false;
    }
  });
}

/**
 * A read of a file that is another name (a hard link) of a file the rules protect gets that
 * file's answer — deny for a denied `.env`, so neither a person's yes nor --auto can show it; ask
 * for one the rules ask about — whenever that is stricter than what the read of the link got.
 */
export function guardHardLinks(permission: PermissionAnswer, deps: ConfineDeps): PermissionAnswer {
  if (permission.answer === "deny") return permission;
  let changed = false;
  const outcomes = permission.outcomes.map((outcome) => {
    if (outcome.request.action !== "read" || outcome.request.resource === "*") return outcome;
    const original = protectedOriginal(deps, outcome.request.resource);
    if (original === undefined) return outcome;
    const effect = readVerdict(deps, original);
    if (STRICTNESS[effect] <= STRICTNESS[outcome.effect]) return outcome;
    changed = true;
    return {
      ...outcome,
      effect,
      holder: "code" as const,
      reasons: [
        {
          rule: `read:${outcome.request.resource}`,
          detail: `${effect} — another name (a hard link) of ${original}, which the read rules ${effect === "deny" ? "deny" : "ask about"}: a second name of a protected file is that file`,
        },
        ...outcome.reasons,
      ],
    };
  });
  return changed ? summarizeJudged(outcomes, deps.authority) : permission;
}

/**
 * What a command a repository brings (a hook, an MCP server, seat project.command) may do once
 * it was let run. It always runs sealed — whoever wrote the repository's bosun.json must not
 * get the user's full authority — and how far the seal opens depends on who let it run: on a
 * read-only proof, nothing writable and no network; allowed by name (a rule in the user's own
 * config or flags, a saved "always", the person at the prompt), the workspace writable (never its
 * `.git`) and the network kept; let through by auto mode's blanket yes, the workspace writable
 * but no network.
 */
export type RepositoryGrant = "proof" | "named" | "auto";

/** Who let a repository's command run, from its permission answer (or a person's yes). */
export function repositoryGrant(permission: PermissionAnswer | "person"): RepositoryGrant {
  if (permission === "person") return "named";
  const shells = permission.outcomes.filter((o) => o.request.action === "shell");
  if (shells.length === 0) return "proof";
  const grants = shells.map((o): RepositoryGrant => {
    if (o.rule?.when === "read-only" || o.holder === "model") return "proof";
    if (o.rule?.effect === "allow") return "named";
    return "auto";
  });
  // The narrowest grant any of its commands got.
  if (grants.includes("proof")) return "proof";
  return grants.includes("auto") ? "auto" : "named";
}

/**
 * Seat exec.sandbox for a repository's command: the sealed confinement its grant allows, with the
 * protected files shown empty. Where it cannot be sealed (no bubblewrap, files that cannot be
 * hidden), unavailable: the command does not run. shell.sandbox off (the user's own config;
 * a repository's needs trust) runs it unconfined, as the person chose.
 */
export async function repositoryConfinement(grant: RepositoryGrant, deps: ConfineDeps): Promise<ConfinementVerdict> {
  const why = "a command the repository brings";
  if (deps.sandbox === "off") return sandboxOff(deps, why);
  const problem = await sandboxProblem();
  if (problem)
    return verdict(
      "unavailable",
      "no sandbox",
      `${why} runs only confined, and it cannot be here (${problem}): it does not run; install bubblewrap`,
    );
  // Whatever the person's mode says yes to for the agent, a repository's code does not see .env.
  const hidden = await unreadableFiles({ ...deps, strict: true });
  if (hidden.problem)
    return verdict(hidden.deny ? "denied" : "unavailable", "cannot mask", `${why}: ${hidden.problem}: it does not run`);
  const writable = grant === "proof" ? [] : [deps.authority.workspace];
  const network = grant === "named";
  const detail = `${why}, let run ${
    grant === "proof" ? "on a read-only proof" : grant === "named" ? "by name" : "by auto mode"
  }: sealed — ${writable.length > 0 ? "the workspace writable (not its .git)" : "the file system read-only"}, ${
    network ? "the network kept" : "no network"
  }, home folders and /tmp hidden, protected files shown empty, no withheld variables`;
  return {
    holder: "code",
    answer: writable.length > 0 ? "workspace-write" : "read-only",
    reasons: [
      { rule: "repository command", detail, decisive: true },
      ...(hidden.files.length > 0 ? [{ rule: "shown empty", detail: hidden.files.join(", ") }] : []),
    ],
    confine: {
      kind: "sealed",
      visible: deps.visible,
      ...(writable.length > 0 ? { writable } : {}),
      ...(network ? { network } : {}),
      ...(hidden.files.length > 0 ? { masked: hidden.files } : {}),
    },
  };
}
