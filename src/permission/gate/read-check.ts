import { type Stats, statSync } from "node:fs";
import { resolve } from "node:path";
import type { LayerName, ReferenceRead } from "../../config/load.js";
import { isCredentialKey } from "../../config/references.js";
import type { Reason } from "../../contracts/decisions.js";
import type { Request } from "../../contracts/requests.js";
import { type Policy, policyDenials } from "../rules/policy.js";
import { isInside, resolveRequestPath } from "../rules/requests.js";
import { type AuthorityContext, authorize } from "./authorize.js";
import { type FileIdentity, readChecked } from "./checked-read.js";
import { protectedOriginal } from "./confine.js";

/**
 * What may be read into what the model is sent without a tool call: instruction files, skills
 * and the files a skill lists, `{file:}` references of config. Each path is judged as a `read`
 * call of it would be — resolved through links, the read rules of every layer, the policy, a
 * second name (hard link) of a protected file counting as that file, a path outside the
 * workspace asking `external_directory` — and then by who brings it (the approval model):
 *
 * - **repository**: the repository's own files and its config's references. Nobody approved
 *   them, so the rules must allow them outright: an ask is a refusal, and so is a path outside
 *   the workspace unless a rule allows it.
 * - **user**: what the user's own config names (global config, BOSUN_CONFIG, BOSUN_CONFIG_CONTENT)
 *   and the user's own folders (the global AGENTS.md, the global skills). Naming it is the
 *   user's approval of an ask, never of a deny: a link to a file the rules deny is refused.
 *
 * The mode is left out: it decides about calls (auto allows what asks, chat denies every call),
 * not about which files the rules protect. Pure but for reading the file system.
 */
export type ReadOrigin = "repository" | "user";

export interface ReadQuery {
  origin: ReadOrigin;
  /**
   * A folder of the user's own that bosun looks in (the global config folder, a global skills
   * folder): outside the workspace by nature, so what lies in it asks no `external_directory`.
   */
  own?: string;
}

export { type CheckedRead, type FileIdentity, fileErrorReason, readChecked } from "./checked-read.js";

export type ReadVerdict =
  | { ok: true; real: string; identity?: FileIdentity }
  | { ok: false; real?: string; reason: string };

export type ReadCheck = ((path: string, query: ReadQuery) => ReadVerdict) & {
  /**
   * Whether an instruction URL may be fetched into the model's context: `web:<host>` judged as a
   * web request would be, with the same approval model (a repository's must be allowed outright).
   */
  web?: (url: string, query: ReadQuery) => { ok: true } | { ok: false; reason: string };
};

/** The run's read check: one function every route into the model's context asks. */
export function readCheck(deps: { authority: AuthorityContext; policy: Policy }): ReadCheck {
  const authority: AuthorityContext = { ...deps.authority, mode: { ...deps.authority.mode, name: "approve" } };
  const { workspace, home } = deps.authority;
  const web: NonNullable<ReadCheck["web"]> = (url, query) => {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return { ok: false, reason: "not a URL" };
    }
    const requests: Request[] = [{ action: "web", resource: host }];
    const policy = policyDenials(requests, deps.policy.rules, { workspace, home });
    if (policy[0]) return { ok: false, reason: `web:${host} denied by policy rule "${policy[0].rule.pattern}"` };
    const answer = authorize({ requests }, authority);
    if (answer.answer === "deny") return { ok: false, reason: decisive(answer.reasons) };
    if (answer.answer === "ask" && query.origin === "repository") {
      return {
        ok: false,
        reason: `${decisive(answer.reasons)}; a repository's instruction URL is fetched only when a web rule allows its host outright (nobody approved it)`,
      };
    }
    return { ok: true };
  };
  return Object.assign(
    (path: string, query: ReadQuery): ReadVerdict => {
      let real: string;
      try {
        real = resolveRequestPath(path, deps.authority.cwd);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, reason: /too many symbolic links/.test(message) ? "a symlink loop (ELOOP)" : message };
      }
      let info: Stats | undefined;
      try {
        info = statSync(real);
      } catch {
        // Not there (yet): the rules are still asked; reading it will say what is missing.
      }
      // A second name (a hard link) of a file the rules protect is that file (confine.ts).
      const original = info ? protectedOriginal(deps, real) : undefined;
      const twins = original ? [original] : [];
      const requests: Request[] = [
        { action: "read", resource: real },
        ...twins.map((twin): Request => ({ action: "read", resource: twin })),
      ];
      if (!isInside(real, workspace) && !ownFolderHolds(query.own, real, deps.authority.cwd)) {
        requests.push({ action: "external_directory", resource: real });
      }
      const how = [
        ...(real !== resolve(deps.authority.cwd, path) ? [`a link to ${real}`] : []),
        ...twins.map((twin) => `another name (a hard link) of ${twin}`),
      ]
        .map((part) => `${part}: `)
        .join("");
      const refused = (reason: string): ReadVerdict => ({ ok: false, real, reason: `${how}${reason}` });

      const policy = policyDenials(requests, deps.policy.rules, { workspace, home });
      if (policy[0]) {
        const { request, rule } = policy[0];
        return refused(
          `${request.action}:${request.resource} denied by policy rule "${rule.pattern}" (${rule.source.file ?? "policy"})`,
        );
      }
      const answer = authorize({ requests }, authority);
      if (answer.answer === "deny") return refused(decisive(answer.reasons));
      if (answer.answer === "ask" && query.origin === "repository") {
        return refused(
          `${decisive(answer.reasons)}; what a repository brings into the model's context must be allowed by the rules outright (nobody approved it)`,
        );
      }
      // git never makes hard links: a repository's file with other names may be any file on this
      // disk (one outside the workspace has no protected name here to compare it with), so it is
      // judged as a file outside as well.
      if (query.origin === "repository" && info?.isFile() && info.nlink > 1 && !original && isInside(real, workspace)) {
        const outside = authorize({ requests: [{ action: "external_directory", resource: real }] }, authority);
        if (outside.answer !== "allow") {
          return refused(
            `it has other names (hard links), so it may be a file outside the workspace: ${decisive(outside.reasons)}; what a repository brings must be allowed outright`,
          );
        }
      }
      return { ok: true, real, ...(info ? { identity: { dev: info.dev, ino: info.ino } } : {}) };
    },
    { web },
  );
}

/** Largest file a `{file:}` reference of config reads. */
export const REFERENCE_MAX_BYTES = 1024 * 1024;

/**
 * How config's `{file:}` references read under the run's rules (loadConfig's readReference): a
 * repository's (the project layer) only what the rules allow outright; your own layers' like any
 * file you name — an ask approved, a deny refused — except the keys bosun uses itself and shows
 * to nobody (a provider's key or headers, an MCP server's env): a rule keeping the model away
 * from your key file is not meant to keep bosun from your key.
 */
export function referenceReader(
  check: ReadCheck,
): (path: string, where: { layer: LayerName; key: readonly string[] }) => ReferenceRead {
  return (path, where) => {
    const repository = where.layer === "project";
    const verdict = check(path, { origin: repository ? "repository" : "user" });
    if (!verdict.ok && (repository || !isCredentialKey(where.key))) return { refused: verdict.reason };
    const real = verdict.real ?? path;
    const read = readChecked(verdict.ok ? verdict : { real, ...identityOf(real) }, REFERENCE_MAX_BYTES);
    if ("tooBig" in read) return { refused: `${read.tooBig} bytes, over ${REFERENCE_MAX_BYTES / 1024 / 1024} MiB` };
    if ("refused" in read) return { refused: read.refused };
    return { value: read.text };
  };
}

function identityOf(path: string): { identity?: FileIdentity } {
  try {
    const info = statSync(path);
    return { identity: { dev: info.dev, ino: info.ino } };
  } catch {
    return {};
  }
}

function ownFolderHolds(own: string | undefined, real: string, cwd: string): boolean {
  if (!own) return false;
  try {
    return isInside(real, resolveRequestPath(own, cwd));
  } catch {
    return false;
  }
}

/** The first decisive reason, as one line: `read:/w/.env: ask — default rule read "**\/.env" → ask, last match`. */
function decisive(reasons: readonly Reason[]): string {
  const reason = reasons.find((r) => r.decisive) ?? reasons[0];
  if (!reason) return "the rules refuse it";
  return `${reason.rule}${reason.detail ? `: ${reason.detail}` : ""}`;
}
