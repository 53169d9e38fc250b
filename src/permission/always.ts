import { statSync } from "node:fs";
import { dirname } from "node:path";
import type { Judged } from "./authorize.js";
import { type Action, isPathAction, UNKNOWN_PATH } from "./requests.js";
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
  for (const { request, rule } of asking) {
    if (rule && CONFIGURED_LAYERS.has(rule.source.layer)) {
      return {
        options: [],
        unavailable: `a ${rule.source.layer} rule (${rule.source.key}) asks for ${request.action}:${request.resource} every time`,
      };
    }
    if (isPathAction(request.action)) {
      if (request.resource === UNKNOWN_PATH)
        return { options: [], unavailable: "a path is not known before the call runs" };
      if (request.action === "external_directory") {
        const folder = `${escapeGlob(folderOf(request.resource))}/**`;
        narrow.push({ action: request.action, pattern: folder });
        wide.push({ action: request.action, pattern: folder });
        continue;
      }
      narrow.push({ action: request.action, pattern: escapeGlob(request.resource) });
      wide.push({ action: request.action, pattern: `${escapeGlob(dirname(request.resource))}/**` });
      continue;
    }
    if (request.action === "shell") {
      if (request.prefix === undefined) {
        return { options: [], unavailable: `the command name of \`${request.resource}\` is not known before it runs` };
      }
      const pattern = `${request.prefix} *`;
      narrow.push({ action: "shell", pattern });
      wide.push({ action: "shell", pattern });
      continue;
    }
    // web, mcp, delegate, skill: the resource itself (`*` is the only wildcard there; none can be written literally).
    if (request.resource.includes("*")) return { options: [], unavailable: `${request.resource} holds a "*"` };
    narrow.push({ action: request.action, pattern: request.resource });
    wide.push({ action: request.action, pattern: request.resource });
  }
  if (narrow.length === 0) return { options: [] };
  const options: AlwaysOption[] = [{ label: "always", rules: dedupe(narrow) }];
  const folders = dedupe(wide);
  if (JSON.stringify(folders) !== JSON.stringify(options[0]?.rules))
    options.push({ label: "always, whole folder", rules: folders });
  return { options };
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

function dedupe(rules: AlwaysRule[]): AlwaysRule[] {
  const seen = new Set<string>();
  return rules.filter((r) => {
    const key = formatAlwaysRule(r);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
