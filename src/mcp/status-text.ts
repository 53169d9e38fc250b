import type { McpAnnotations } from "../contracts/tools.js";
import type { ServerStatus } from "./status.js";

/** How many of a failed server's last stderr lines /mcp shows (the ledger keeps 20). */
const STDERR_SHOWN = 8;

/**
 * The /mcp block: each configured server with how it stands (connected · N tools, failed with
 * its error and last stderr lines, disabled, skipped and why), the tools of a connected one with
 * their hints, and how to start one again.
 */
export function statusText(servers: readonly ServerStatus[]): string {
  if (servers.length === 0) return "No MCP servers are configured (config `mcp`).";
  const lines = ["MCP servers:"];
  for (const server of servers) lines.push(...serverLines(server));
  lines.push("/mcp reconnect <name> starts a server again; its tools are offered from the next step.");
  return lines.join("\n");
}

export function serverLines(server: ServerStatus): string[] {
  const via = server.transport ? ` (${server.transport})` : "";
  switch (server.state) {
    case "connected": {
      // The count the ledger says (the server's own tools); bosun's resource tools are listed beside them.
      const listed = server.listed ?? server.tools.length;
      const count = `${listed} tool${listed === 1 ? "" : "s"}`;
      const prefix = `mcp__${server.name}__`;
      const tools = server.tools.map((tool) => {
        const short = tool.name.startsWith(prefix) ? tool.name.slice(prefix.length) : tool.name;
        const hints = [...hintWords(tool.annotations), ...(tool.refused ? [`refused: ${tool.refused}`] : [])];
        return `    ${short}${hints.length > 0 ? `  ${hints.join(" · ")}` : ""}`;
      });
      return [`  ${server.name}  connected · ${count}${via}`, ...tools];
    }
    case "needs sign-in":
      return [
        `  ${server.name}  needs sign-in${via}: bosun mcp login ${server.name}, then /mcp reconnect ${server.name}`,
      ];
    case "needs trust":
      return [
        `  ${server.name}  needs trust: ${server.error ?? "not approved"}`,
        `    to let it run: ${server.approve ?? ""}`,
      ];
    case "failed": {
      const tail = server.stderr.slice(-STDERR_SHOWN).map((line) => `      ${line}`);
      return [
        `  ${server.name}  failed${via}: ${server.error ?? "unknown error"}`,
        ...(tail.length > 0 ? ["    stderr:", ...tail] : []),
      ];
    }
    default:
      return [`  ${server.name}  ${server.state}: ${server.error ?? ""}`.trimEnd()];
  }
}

/** A tool's hints in words: what the server said of it, never checked (read-only counts only when said). */
function hintWords(annotations: McpAnnotations | undefined): string[] {
  if (!annotations) return ["no hints (counts as writing)"];
  const words: string[] = [annotations.readOnlyHint === true ? "read-only" : "writes"];
  if (annotations.destructiveHint === true) words.push("destructive");
  if (annotations.idempotentHint === true) words.push("idempotent");
  if (annotations.openWorldHint === true) words.push("open world");
  return words;
}
