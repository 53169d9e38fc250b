import { isPlainObject } from "../../util/object.js";

/**
 * A repository's MCP servers that would read your environment or your files: an `mcp.<name>.env`
 * or `mcp.<name>.headers` value, its `command`, `url` or an item of its `args` holding `{env:…}` or `{file:…}` (a repository
 * writing `env: { "GITHUB_TOKEN": "{env:GITHUB_TOKEN}" }` would hand your token to a program it
 * chose). Loosenings like allow rules (seat `project.trust`, project-trust.ts): until you trust
 * that content they are left out — an env entry or header is simply absent, a server whose command,
 * args or url hold one is left out whole, so it does not run (a header would send your token to a
 * server the repository chose, as an env entry would hand it to its program). Hooks need no item: their commands are never
 * expanded (config/references.ts), so they read nothing.
 */
const REFERENCE = /\{(?:env|file):[^}]+\}/g;

function references(value: unknown): string[] {
  if (typeof value === "string") return value.match(REFERENCE) ?? [];
  if (Array.isArray(value)) return value.flatMap(references);
  return [];
}

/** The items the trust prompt lists for one project file as written: `mcp github env GITHUB_TOKEN reads {env:GITHUB_TOKEN}`. */
export function referenceLoosening(written: unknown): string[] {
  if (!isPlainObject(written) || !isPlainObject(written.mcp)) return [];
  const items: string[] = [];
  for (const [name, server] of Object.entries(written.mcp)) {
    if (!isPlainObject(server)) continue;
    for (const key of ["command", "args", "url"]) {
      const found = references(server[key]);
      if (found.length > 0) items.push(`mcp ${name} ${key} reads ${found.join(", ")}`);
    }
    for (const map of ["env", "headers"] as const) {
      const entries = server[map];
      if (!isPlainObject(entries)) continue;
      for (const [variable, value] of Object.entries(entries)) {
        const found = references(value);
        if (found.length > 0) items.push(`mcp ${name} ${map} ${variable} reads ${found.join(", ")}`);
      }
    }
  }
  return items;
}

/** A project file's content without them (before its references are resolved). */
export function withoutReferences(data: Record<string, unknown>): Record<string, unknown> {
  if (!isPlainObject(data.mcp)) return data;
  const mcp: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(data.mcp)) {
    if (!isPlainObject(server)) {
      mcp[name] = server;
      continue;
    }
    if (["command", "args", "url"].some((key) => references(server[key]).length > 0)) continue;
    mcp[name] = { ...server, ...unreferenced(server, "env"), ...unreferenced(server, "headers") };
  }
  return { ...data, mcp };
}

/** A server's `env` or `headers` without the entries that read a reference (none when it has none). */
function unreferenced(server: Record<string, unknown>, key: "env" | "headers"): Record<string, unknown> {
  const entries = server[key];
  if (!isPlainObject(entries)) return {};
  return { [key]: Object.fromEntries(Object.entries(entries).filter(([, value]) => references(value).length === 0)) };
}
