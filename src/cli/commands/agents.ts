import { relative, sep } from "node:path";
import { agentCatalog } from "../../agents/catalog.js";
import { UsageError } from "../../errors.js";
import { formatTable } from "../../util/table.js";
import { json, out } from "../output.js";
import { loadForCommand } from "./config.js";

/**
 * `bosun agents` (`bosun agents list`): every agent — built-in, config `agent`, agent files — with
 * its description, where it is defined, whether it is read-only, its model and tools; then the
 * agent files another of the same name shadows, and what of other tools' files was left out.
 */
export function listAgents(options: { format?: string; json?: boolean }): void {
  const format = options.json ? "json" : (options.format ?? "text");
  if (format !== "text" && format !== "json") {
    throw new UsageError(`--format: expected text or json, received "${format}"`);
  }
  const config = loadForCommand();
  const { agents, decision } = agentCatalog(config);
  const unknownTools = decision.reasons.filter((r) => r.rule === "unknown tools").map((r) => r.detail ?? "");
  const { shadowed, used, skippedFiles } = config.agentFiles;
  const leftOut = used.flatMap((file) => file.skipped.map((reason) => ({ agent: file.name, file: file.file, reason })));
  if (format === "json") {
    json({
      agents,
      shadowed: shadowed.map(({ name, file, format: kind, scope, by }) => ({ name, file, format: kind, scope, by })),
      leftOut,
      skippedFiles,
      unknownTools,
    });
    return;
  }
  out(
    formatTable(
      ["NAME", "READ-ONLY", "MODEL", "TOOLS", "SOURCE", "DESCRIPTION"],
      agents.map((agent) => [
        agent.name,
        agent.readOnly ? "yes" : "no",
        agent.model ?? "-",
        agent.tools ? agent.tools.join(",") || "(none)" : "all",
        shown(agent.source),
        agent.description ?? "",
      ]),
    ),
  );
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out(`\n${title}:\n${lines.map((line) => `  ${line}`).join("\n")}`);
  };
  section(
    "shadowed",
    shadowed.map((file) => `${file.name}: ${shown(file.file)} (shadowed by ${shown(file.by)})`),
  );
  section(
    "left out",
    leftOut.map((item) => `${item.agent} (${shown(item.file)}): ${item.reason}`),
  );
  section("unknown tools", unknownTools);
  section(
    "skipped files",
    skippedFiles.map((file) => `${shown(file.file)}: ${file.reason}`),
  );
}

/** A path under the working directory, relative to it; others as they are. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || rel.startsWith(sep) ? path : rel;
}
