import { dirname } from "node:path";
import type { LoadedConfig } from "../../config/load.js";
import { globalConfigFile } from "../../config/paths.js";
import { commandPath, discoverCustomCommands } from "../../input/custom-commands.js";
import { workspaceOf } from "../../util/repo.js";

/**
 * The files `bosun config --origin` lists beside the keys: what else was picked up and from
 * where — other agents' conventions included (`.mcp.json`, `.claude/commands`, agent files) — so a
 * person switching tools sees which of their files bosun reads, and which it left out and why.
 * Rows have the origin rows' shape: `layer<TAB>file<TAB>what`.
 */
export interface SourceRow {
  layer: "global" | "project";
  file: string;
  what: string;
}

/** The rows, in the order they are read: agent files, `.mcp.json`, then custom commands. */
export function sourceRows(loaded: LoadedConfig, cwd: string, env: NodeJS.ProcessEnv = process.env): SourceRow[] {
  const rows: SourceRow[] = [];
  const { agentFiles, mcpJson } = loaded;
  for (const used of agentFiles.used) {
    rows.push({ layer: used.scope, file: used.file, what: `agent ${used.name} (${used.format} agent file)` });
    for (const skipped of used.skipped) rows.push({ layer: used.scope, file: used.file, what: `left out ${skipped}` });
  }
  for (const shadowed of agentFiles.shadowed) {
    rows.push({
      layer: shadowed.scope,
      file: shadowed.file,
      what: `agent ${shadowed.name}: shadowed by ${shadowed.by}`,
    });
  }
  for (const skipped of agentFiles.skippedFiles) {
    rows.push({ layer: skipped.scope, file: skipped.file, what: `not read: ${skipped.reason}` });
  }
  if (mcpJson) {
    for (const server of mcpJson.servers) {
      // What bosun.json set over it, or a reference that left it out, shows in the key rows above.
      const url = loaded.config.mcp?.[server]?.url;
      const what = url
        ? `mcp.${server} (a remote server at ${url}: it runs no program; its tools are judged as any MCP tool's)`
        : `mcp.${server} (a repository's command: seat project.command)`;
      rows.push({ layer: "project", file: mcpJson.file, what });
    }
    for (const { key, reason } of mcpJson.skipped) {
      rows.push({ layer: "project", file: mcpJson.file, what: `left out ${key || "the file"}: ${reason}` });
    }
  }
  const commands = discoverCustomCommands({
    workspace: workspaceOf(cwd),
    globalDir: dirname(globalConfigFile(env)),
  });
  for (const command of commands.commands) {
    rows.push({ layer: command.scope, file: command.file, what: `command /${command.name}` });
    for (const { key, reason } of command.ignored ?? []) {
      rows.push({
        layer: command.scope,
        file: command.file,
        what: `command /${command.name} ignores ${key}: ${reason}`,
      });
    }
  }
  for (const { command, by } of commands.shadowed) {
    rows.push({
      layer: command.scope,
      file: command.file,
      what: `command /${command.name}: shadowed by ${commandPath(by)}`,
    });
  }
  for (const { file, reason } of commands.skipped) rows.push({ layer: "project", file, what: `not read: ${reason}` });
  return rows;
}

export function formatSourceRow(row: SourceRow): string {
  return `${row.layer}\t${row.file}\t${row.what}`;
}
