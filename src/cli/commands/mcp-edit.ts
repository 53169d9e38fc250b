import { basename, join } from "node:path";
import { editJsoncFile } from "../../config/jsonc-edit.js";
import { getAt, isPlainObject } from "../../config/keypath.js";
import type { ConfigDocument } from "../../config/load.js";
import { globalConfigFile } from "../../config/paths.js";
import { validateLayer } from "../../config/validate.js";
import { BosunError } from "../../errors.js";
import { closest } from "../../util/closest.js";
import { findRepoRoot } from "../../util/repo.js";
import { out, warn } from "../output.js";
import { loadForCommand } from "./config.js";
import { type AddFlags, scopeOf, serverEntry } from "./mcp-entry.js";

type Scope = "user" | "project";

/** The file a scope's servers are written to: your own config, or the repository root's bosun.json. */
function scopeFile(scope: Scope, cwd: string): string {
  return scope === "user" ? globalConfigFile() : join(findRepoRoot(cwd) ?? cwd, "bosun.json");
}

/**
 * `bosun mcp add`: writes the server into the scope's file (user by default), keeping the file's
 * comments and layout, after checking the entry against the config schema as it reads back. A
 * name the file already has is refused unless `--force`.
 */
export function addServer(name: string, words: readonly string[], flags: AddFlags): void {
  const entry = serverEntry(name, words, flags);
  for (const given of [...(flags.env ?? []), ...(flags.header ?? [])]) {
    if (/(key|token|secret|password|authorization)/i.test(given) && !/\{env:[^}]+\}/.test(given)) {
      warn(`${given.split(/[=:]/)[0]} is written as given; {env:NAME} keeps the value out of the file`);
    }
  }
  const scope = scopeOf(flags.scope) ?? "user";
  const cwd = process.cwd();
  const file = scopeFile(scope, cwd);
  const loaded = loadForCommand();
  const here = loaded.documents.find((doc) => doc.file === file && definesServer(doc, name));
  if (here && !flags.force) {
    throw new BosunError(`${file} already has an MCP server "${name}" (--force replaces it)`, 1);
  }
  editJsoncFile(
    file,
    ["mcp", name],
    entry,
    (doc) => {
      validateLayer({ mcp: { [name]: getAt(doc.data, ["mcp", name]) } }, { label: file, lineOf: doc.lineOf });
    },
    // Your own config may hold keys (an env value given here): readable by you only when bosun makes it.
    scope === "user" ? { mode: 0o600 } : {},
  );
  out(`${here ? "replaced" : "added"} MCP server "${name}" in ${file} (${scope} config)`);
  for (const other of loaded.documents.filter((doc) => doc.file !== file && definesServer(doc, name))) {
    warn(`"${name}" is also configured in ${other.source} (${other.layer}); the higher layer's keys win`);
  }
  if (scope === "project") {
    out(
      `a repository's server starts only once approved (seat project.command): bosun mcp test ${name} --trust-project`,
    );
  }
}

/**
 * `bosun mcp remove`: takes the server out of the one file bosun may edit that defines it (your
 * own config or a repository bosun.json; `--scope` picks when both do), saying which. A server
 * of `.mcp.json`, BOSUN_CONFIG or BOSUN_CONFIG_CONTENT is not edited: the error names where it is.
 */
export function removeServer(name: string, flags: { scope?: string }): void {
  const scope = scopeOf(flags.scope);
  const loaded = loadForCommand();
  const defining = loaded.documents.filter((doc) => definesServer(doc, name));
  if (defining.length === 0) {
    const known = Object.keys(loaded.config.mcp ?? {});
    const near = closest(name, known, 1)[0];
    throw new BosunError(
      `no MCP server "${name}" is configured here${near ? ` — did you mean "${near}"?` : ""} (bosun mcp list)`,
      1,
    );
  }
  const editable = defining.filter((doc) => {
    const kind = editableScope(doc);
    return kind !== undefined && (scope === undefined || kind === scope);
  });
  if (editable.length === 0) {
    const where = defining.map((doc) => `${doc.source} (${doc.layer}${readOnlyWhy(doc)})`).join(", ");
    throw new BosunError(
      `"${name}" is configured in ${where}${scope ? `, not in the ${scope} config` : ""}; bosun does not edit that file: remove it there`,
      1,
    );
  }
  if (editable.length > 1) {
    throw new BosunError(
      `"${name}" is configured in ${editable.map((doc) => doc.source).join(" and ")}: say which with --scope user|project`,
      1,
    );
  }
  const file = editable[0]?.file as string;
  editJsoncFile(file, ["mcp", name], undefined);
  out(`removed MCP server "${name}" from ${file}`);
  for (const other of defining.filter((doc) => doc !== editable[0])) {
    warn(`"${name}" is still configured in ${other.source} (${other.layer})`);
  }
}

function definesServer(doc: ConfigDocument, name: string): boolean {
  const written = doc.written as { mcp?: unknown } | undefined;
  return isPlainObject(written) && isPlainObject(written.mcp) && Object.hasOwn(written.mcp, name);
}

/** Which scope a layer's file is, when bosun may edit it: your config, or a repository's bosun.json. */
function editableScope(doc: ConfigDocument): Scope | undefined {
  if (!doc.file || doc.agentFile) return undefined;
  if (doc.layer === "global" && doc.file === globalConfigFile()) return "user";
  if (doc.layer === "project" && basename(doc.file) === "bosun.json") return "project";
  return undefined;
}

function readOnlyWhy(doc: ConfigDocument): string {
  if (doc.file && basename(doc.file) === ".mcp.json") return ", Claude Code's file";
  if (doc.layer === "BOSUN_CONFIG" || doc.layer === "BOSUN_CONFIG_CONTENT") return ", named by the environment";
  return "";
}
