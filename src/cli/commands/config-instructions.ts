import { dirname, join } from "node:path";
import { decideAgent } from "../../agents/select.js";
import type { LoadedConfig } from "../../config/load.js";
import { dataDir, globalConfigFile } from "../../config/paths.js";
import { type ExtraInstruction, loadInstructions } from "../../context/instructions.js";
import { readCheck } from "../../permission/gate/read-check.js";
import { buildAuthority } from "../../permission/rules/layers.js";
import { loadPolicy } from "../../permission/rules/policy.js";
import { resolveRequestPath } from "../../permission/rules/requests.js";
import { findRepoRoot, workspaceOf } from "../../util/repo.js";
import type { SourceRow } from "./config-sources.js";

/**
 * The instruction files `bosun config --origin` lists, `@imports` with who imported them: read as
 * a session of the default agent starts reading them — through the same read check, built from
 * the same rules and policy (the repository untrusted, no saved approvals: what is listed is
 * never more than a session reads). URLs are named, not fetched: listing config fetches nothing.
 */
export async function instructionRows(loaded: LoadedConfig, cwd: string): Promise<SourceRow[]> {
  const workspace = workspaceOf(cwd);
  const authority = buildAuthority({
    config: loaded,
    agent: decideAgent(undefined, loaded).agent,
    mode: { name: "approve", holder: "code" },
    cwd,
    workspace,
    ownData: resolveRequestPath(dataDir(), "/"),
  });
  const check = readCheck({ authority, policy: loadPolicy() });
  const globalDir = dirname(globalConfigFile());
  const rows: SourceRow[] = [];
  const extra: ExtraInstruction[] = [];
  for (const doc of loaded.documents) {
    const layer = doc.layer === "project" ? "project" : "global";
    for (const value of doc.data.instructions?.files ?? []) {
      const source = doc.file ?? doc.source;
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
        rows.push({ layer, file: value, what: `instructions (a URL ${source} names: fetched when a session starts)` });
        continue;
      }
      const owner = doc.layer === "project" ? "repository" : "user";
      extra.push({ value, baseDir: doc.file ? dirname(doc.file) : cwd, source, owner });
    }
  }
  const result = await loadInstructions({
    globalDir,
    repoRoot: findRepoRoot(cwd) ?? cwd,
    cwd,
    claudeMd: loaded.config.instructions.claude_md,
    extra,
    cacheDir: join(dataDir(), "instructions-cache"),
    check,
    fetchTimeoutMs: loaded.config.instructions.fetch_timeout_ms,
  });
  for (const file of result.files) {
    const layer = file.origin === "global" ? "global" : "project";
    const by = file.importedBy ? ` imported by ${file.importedBy}` : "";
    rows.push({ layer, file: file.path, what: `instructions (${file.origin}${by})` });
  }
  for (const skip of result.skipped) {
    const layer = skip.path.startsWith(`${globalDir}/`) ? "global" : "project";
    rows.push({ layer, file: skip.path, what: `not read: ${skip.reason}` });
  }
  return rows;
}
