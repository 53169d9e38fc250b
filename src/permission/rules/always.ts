import { statSync } from "node:fs";
import { dirname, isAbsolute, relative } from "node:path";
import type { Action } from "../../contracts/requests.js";
import { uniqueBy } from "../../util/unique.js";
import type { Judged } from "../gate/authorize.js";
import { isPathAction, UNKNOWN_PATH } from "./requests.js";
import { CONFIGURED_LAYERS } from "./rules.js";

/** One rule an "always" would save: allow `action:pattern` in this project from now on. */
export interface AlwaysRule {
  action: Action;
  pattern: string;
}

/** A way to answer "always", with the exact rules it saves (shown to the person before saving). */
export interface AlwaysOption {
  label: string;
  rules: AlwaysRule[];
}

export interface AlwaysOffer {
  options: AlwaysOption[];
  /** Why "always" is not offered, when it is not. */
  unavailable?: string;
}

/**
 * The narrow rules an "always" saves for a call's asking requests: per simple command its
 * prefix (`git status *`, never the whole compound line), per file the file — or, as a second
 * option, its folder — per outside path its folder. Nothing is offered when any asking request
 * cannot be covered narrowly (a command whose name is not known, a path not known before it runs)
 * or was asked for by a rule someone wrote (a saved approval would never lift that rule anyway).
 */
export function alwaysOffer(outcomes: readonly Judged[]): AlwaysOffer {
  const asking = outcomes.filter((o) => o.effect === "ask");
  const narrow: AlwaysRule[] = [];
  const wide: AlwaysRule[] = [];
  for (const outcome of asking) {
    const { request, rule } = outcome;
    if (rule && CONFIGURED_LAYERS.has(rule.source.layer)) {
      return {
        options: [],
        unavailable: `a ${rule.source.layer} rule (${rule.source.key}) asks for ${request.action}:${request.resource} every time`,
      };
    }
    const found = narrowRule(outcome);
    if ("unavailable" in found) return { options: [], unavailable: found.unavailable };
    narrow.push(found.narrow);
    wide.push(found.wide);
  }
  if (narrow.length === 0) return { options: [] };
  const options: AlwaysOption[] = [{ label: "always", rules: uniqueBy(narrow, formatAlwaysRule) }];
  const folders = uniqueBy(wide, formatAlwaysRule);
  if (JSON.stringify(folders) !== JSON.stringify(options[0]?.rules))
    options.push({ label: "always, whole folder", rules: folders });
  return { options };
}

/**
 * The narrowest rule that covers one asking request, and its folder-wide twin — what "always"
 * offers, and what a refusal with nobody to ask names as the `--allow` that would lift it
 * (allow-hint.ts), so the two always agree. With `workspace`, a path inside it is written
 * relative to it (how a person types a flag; a relative pattern matches the workspace's file).
 */
export function narrowRule(
  { request }: Pick<Judged, "request">,
  workspace?: string,
): { narrow: AlwaysRule; wide: AlwaysRule } | { unavailable: string } {
  if (isPathAction(request.action)) {
    if (request.resource === UNKNOWN_PATH) return { unavailable: "a path is not known before the call runs" };
    if (request.action === "external_directory") {
      const folder = { action: request.action, pattern: `${escapeGlob(folderOf(request.resource))}/**` };
      return { narrow: folder, wide: folder };
    }
    const path = workspace ? workspaceRelative(request.resource, workspace) : request.resource;
    return {
      narrow: { action: request.action, pattern: escapeGlob(path) },
      wide: { action: request.action, pattern: `${escapeGlob(dirname(path))}/**` },
    };
  }
  if (request.action === "shell") {
    if (request.prefix === undefined) {
      return { unavailable: `the command name of \`${request.resource}\` is not known before it runs` };
    }
    const rule = { action: "shell" as const, pattern: `${request.prefix} *` };
    return { narrow: rule, wide: rule };
  }
  // web, mcp, delegate, skill: the resource itself (`*` is the only wildcard there; none can be written literally).
  if (request.resource.includes("*")) return { unavailable: `${request.resource} holds a "*"` };
  const rule = { action: request.action, pattern: request.resource };
  return { narrow: rule, wide: rule };
}

function workspaceRelative(path: string, workspace: string): string {
  const inside = relative(workspace, path);
  const outside = inside === "" || inside === ".." || inside.startsWith("../") || isAbsolute(inside);
  return outside ? path : inside;
}

export function formatAlwaysRule(rule: AlwaysRule): string {
  return `${rule.action}:${rule.pattern}`;
}

function folderOf(path: string): string {
  try {
    if (statSync(path).isDirectory()) return path;
  } catch {
    // Not there (yet): its folder.
  }
  return dirname(path);
}

function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}\\]/g, "\\$&");
}
