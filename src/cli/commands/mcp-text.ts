import type { ConfiguredServer } from "../../mcp/configured.js";
import { where } from "../../mcp/configured.js";
import type { ProbeReport } from "../../mcp/probe.js";
import type { McpToolInfo } from "../../mcp/tool.js";

/** How many of a failed server's last stderr lines `bosun mcp list` shows (get and test show all kept). */
export const LIST_STDERR_LINES = 5;

/** One server's state as listed: whether it starts here, and what a check found. */
export interface ServerState {
  start: "yes" | "needs trust" | "disabled";
  why?: string;
  check?: CheckResult;
}

export interface CheckResult {
  status: "connected" | "failed" | "needs sign-in";
  tools?: number;
  message?: string;
  stderr?: readonly string[];
}

/** What a probe found, in the words `bosun mcp list` uses (seat mcp.connect's). */
export function checkResult(report: ProbeReport): CheckResult {
  if (report.outcome.ok) return { status: "connected", tools: report.outcome.tools };
  return {
    status: report.needsSignIn ? "needs sign-in" : "failed",
    message: report.outcome.message,
    stderr: report.outcome.stderr,
  };
}

/** `connected · 3 tools`, `failed: <message>`, `needs trust (<why>)`. */
export function stateText(state: ServerState): string {
  if (state.start === "disabled") return "disabled";
  if (state.start === "needs trust") return `needs trust (${state.why})`;
  const check = state.check;
  if (!check) return "not checked";
  if (check.status === "connected") return `connected · ${check.tools} tool${check.tools === 1 ? "" : "s"}`;
  if (check.status === "needs sign-in") return `needs sign-in (${check.message})`;
  return `failed: ${check.message}`;
}

/** One row per server (columns padded to the widest), a failed one's last stderr lines under it. */
export function listLines(rows: ReadonlyArray<{ server: ConfiguredServer; state: ServerState }>): string[] {
  const cells = rows.map(({ server, state }) => [
    server.name,
    server.transport,
    `${server.origin.layer} ${where(server.origin)}`,
    [server.required ? "required · " : "", stateText(state)].join(""),
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...cells.map((c) => (c[i] as string).length)));
  const lines: string[] = [];
  rows.forEach(({ state }, n) => {
    const row = cells[n] as string[];
    lines.push(row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] as number) : cell)).join("  "));
    for (const line of state.check?.stderr?.slice(-LIST_STDERR_LINES) ?? []) lines.push(`    | ${line}`);
  });
  return lines;
}

/** `name — first line of its description [read-only, destructive]`. */
export function toolLine(tool: McpToolInfo): string {
  const first = (tool.description ?? "").split("\n")[0]?.trim() ?? "";
  const a = tool.annotations ?? {};
  const marks = [
    a.readOnlyHint === true ? "read-only" : "",
    a.destructiveHint === true && a.readOnlyHint !== true ? "destructive" : "",
    a.idempotentHint === true ? "idempotent" : "",
    a.openWorldHint === true ? "open-world" : "",
  ].filter(Boolean);
  return `${tool.name}${first ? ` — ${first}` : ""}${marks.length > 0 ? ` [${marks.join(", ")}]` : ""}`;
}

/** What a server is started as: its command line, or the address it is reached at (no query: a token may be there). */
export function reachText(server: ConfiguredServer): string {
  const shown = server.shown as { command?: string; args?: string[]; url?: string };
  if (shown.command !== undefined) return [shown.command, ...(shown.args ?? [])].join(" ");
  try {
    const url = new URL(String(shown.url));
    return `${url.origin}${url.pathname}`;
  } catch {
    return String(shown.url);
  }
}
