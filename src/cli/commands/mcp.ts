import { dataDir } from "../../config/paths.js";
import { BosunError, UsageError } from "../../errors.js";
import { type ConfiguredServer, configuredServers, where } from "../../mcp/configured.js";
import { runAuthFor } from "../../mcp/oauth.js";
import { type ProbeReport, probeServer } from "../../mcp/probe.js";
import { closest } from "../../util/closest.js";
import { json, out } from "../output.js";
import { checkResult, listLines, reachText, type ServerState, stateText, toolLine } from "./mcp-text.js";
import { type MayStart, planStarts, type StartPlan } from "./mcp-trust.js";

/** How long one server may take to start and list its tools, unless --timeout says otherwise. */
const DEFAULT_TIMEOUT_MS = 15_000;

interface ListFlags {
  json?: boolean;
  check?: boolean;
  timeout?: string;
}

/**
 * `bosun mcp list`: every configured server (every layer, .mcp.json too) with where it came from,
 * how it is reached, and whether it would start here. Like `claude mcp list`, each one that may
 * start is connected to (all at once, each bounded) unless --no-check; one that may not — a
 * repository's server nobody approved — is never started.
 */
export async function listServers(flags: ListFlags): Promise<void> {
  const timeout = timeoutOf(flags.timeout);
  const plan = await planStarts(process.cwd(), false, AbortSignal.timeout(timeout * 4));
  const servers = configuredServers(plan.listed);
  const rows = await Promise.all(
    servers.map(async (server) => ({ server, state: await stateOf(server, plan, flags.check !== false, timeout) })),
  );
  if (flags.json) {
    json(rows.map(({ server, state }) => ({ ...withoutShown(server), ...state })));
    return;
  }
  if (rows.length === 0) {
    out("no MCP servers are configured (bosun mcp add <name> -- <command>, or config mcp; .mcp.json is read too)");
    return;
  }
  for (const line of listLines(rows)) out(line);
}

/**
 * `bosun mcp get <name>`: its config as `bosun config` shows it (secrets as their references),
 * where each part came from, whether it starts here, and — when it may — what it offers.
 */
export async function getServer(name: string, flags: { json?: boolean; timeout?: string }): Promise<void> {
  const timeout = timeoutOf(flags.timeout);
  const plan = await planStarts(process.cwd(), false, AbortSignal.timeout(timeout * 4));
  const server = findServer(plan, name);
  const state = await stateOf(server, plan, false, timeout);
  const report = state.start === "yes" ? await probe(server, plan, timeout) : undefined;
  if (report) state.check = checkResult(report);
  if (flags.json) {
    json({ ...server, ...state, ...(report ? { offers: offers(report) } : {}) });
    return;
  }
  out(`${server.name}: ${server.transport} ${reachText(server)}`);
  out(`  origin: ${server.origin.layer} ${where(server.origin)}`);
  for (const file of server.alsoSetIn) out(`  also set in: ${file}`);
  out(`  enabled: ${server.enabled ? "yes" : "no"} · required: ${server.required ? "yes" : "no"}`);
  if (server.fromProject) out("  from the repository's config: starts only once approved (seat project.command)");
  out(`  state: ${stateText(state)}`);
  if (state.start === "disabled") out("  (bosun mcp test connects to it anyway)");
  for (const line of state.check?.stderr ?? []) out(`    | ${line}`);
  out("  config:");
  for (const line of JSON.stringify(server.shown, null, 2).split("\n")) out(`    ${line}`);
  if (report?.outcome.ok) for (const line of offerLines(report)) out(`  ${line}`);
}

/**
 * `bosun mcp test <name>`: connects to it (a disabled one too; a repository's only once
 * approved, or with --trust-project, sealed as a run would seal it) and says each step. Exit 1
 * when it cannot start, or answers only in part.
 */
export async function testServer(name: string, flags: { trustProject?: boolean; timeout?: string }): Promise<void> {
  const timeout = timeoutOf(flags.timeout);
  const plan = await planStarts(process.cwd(), flags.trustProject === true, AbortSignal.timeout(timeout * 4));
  const server = findServer(plan, name);
  const verdict = plan.verdicts.get(name) as MayStart;
  out(`config: ${server.origin.layer} ${where(server.origin)}${server.enabled ? "" : " (disabled; tested anyway)"}`);
  if (!verdict.start) {
    throw new BosunError(
      `not started: ${verdict.why}${server.fromProject ? "\n(--trust-project starts it once, sealed, for this test)" : ""}`,
      1,
    );
  }
  out(`start: ${server.transport} ${reachText(server)}${verdict.confine ? " (sealed: a repository's server)" : ""}`);
  const report = await probe(server, plan, timeout);
  if (!report.outcome.ok) {
    out(`initialize: failed after ${report.ms} ms: ${report.outcome.message}`);
    if (report.outcome.stderr.length > 0) out("stderr (last lines):");
    for (const line of report.outcome.stderr) out(`  | ${line}`);
    if (report.needsSignIn) out("the server wants a sign-in (OAuth), or a header with a token (--header)");
    process.exitCode = 1;
    return;
  }
  out(`initialize: ok in ${report.ms} ms (${report.outcome.transport})`);
  for (const line of offerLines(report)) out(line);
  for (const problem of report.problems) out(`problem: ${problem}`);
  if (report.problems.length > 0) process.exitCode = 1;
}

async function stateOf(server: ConfiguredServer, plan: StartPlan, check: boolean, timeout: number) {
  const verdict = plan.verdicts.get(server.name);
  if (!server.enabled) return { start: "disabled" } satisfies ServerState as ServerState;
  if (!verdict?.start) return { start: "needs trust", why: verdict?.why ?? "not approved" } as ServerState;
  const state: ServerState = { start: "yes" };
  if (check) state.check = checkResult(await probe(server, plan, timeout));
  return state;
}

function probe(server: ConfiguredServer, plan: StartPlan, timeout: number): Promise<ProbeReport> {
  const config = plan.loaded.config.mcp?.[server.name];
  const verdict = plan.verdicts.get(server.name);
  const confine = verdict?.start ? verdict.confine : undefined;
  const entry = config as NonNullable<typeof config>;
  // Signed in with `bosun mcp login`: the stored credentials, as a run uses them.
  return probeServer(entry, process.cwd(), confine, timeout, runAuthFor(dataDir())(server.name, entry));
}

function offers(report: ProbeReport) {
  return {
    server: report.server,
    capabilities: report.capabilities,
    tools: report.tools.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description.split("\n")[0] } : {}),
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
    resources: report.resources ?? null,
    prompts: report.prompts ?? null,
    problems: report.problems,
  };
}

function offerLines(report: ProbeReport): string[] {
  const lines = [
    `server: ${report.server ? `${report.server.name} ${report.server.version}` : "(it gave no name)"}`,
    `capabilities: ${report.capabilities.join(", ") || "none"}`,
    `tools: ${report.tools.length}`,
    ...report.tools.map((tool) => `  ${toolLine(tool)}`),
    `resources: ${report.resources ?? "none"}`,
    `prompts: ${report.prompts ? report.prompts.length : "none"}`,
    ...(report.prompts ?? []).map((p) => `  ${p.name}${p.description ? ` — ${p.description.split("\n")[0]}` : ""}`),
  ];
  return lines;
}

function findServer(plan: StartPlan, name: string): ConfiguredServer {
  const servers = configuredServers(plan.listed);
  const found = servers.find((s) => s.name === name);
  if (found) return found;
  const near = closest(
    name,
    servers.map((s) => s.name),
    1,
  )[0];
  throw new BosunError(
    `no MCP server "${name}" is configured here${near ? ` — did you mean "${near}"?` : ""} (bosun mcp list)`,
    1,
  );
}

function withoutShown(server: ConfiguredServer) {
  const { shown: _, ...rest } = server;
  return rest;
}

function timeoutOf(flag: string | undefined): number {
  if (flag === undefined) return DEFAULT_TIMEOUT_MS;
  if (!/^\d+$/.test(flag) || Number(flag) <= 0) throw new UsageError(`--timeout ${flag}: a number of milliseconds`);
  return Number(flag);
}
