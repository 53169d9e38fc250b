import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import { failureText, reconnectAnswer, reconnectRefusal } from "./connect-answer.js";
import { type McpServerSet, refusedOf, type ServerEntry } from "./server-set.js";

/** How a reconnect ended: the server as it now stands, or why it was not started again. */
export type ReconnectOutcome = { ok: true; entry: ServerEntry } | { ok: false; problem: string };

/**
 * Why a configured server cannot be started again by the person, or undefined when it can: one
 * never started stays so — disabled by config, a repository's server seat project.command did
 * not let run, or one an untrusted repository's config left out (`leftOut`: seat project.trust)
 * — reconnecting must not go around those judgements.
 */
export function decideReconnect(
  config: LoadedConfig,
  skip: ReadonlySet<string>,
  name: string,
  started: boolean,
  leftOut?: ReadonlyMap<string, string>,
): string | undefined {
  const untrusted = leftOut?.get(name);
  if (!config.config.mcp?.[name] && untrusted) return `MCP server ${name} needs trust: ${untrusted}`;
  if (!config.config.mcp?.[name]) return `no MCP server is named ${name}`;
  if (skip.has(`mcp.${name}`)) return `MCP server ${name} was not approved to run (seat project.command)`;
  if (!started) return `MCP server ${name} is disabled (mcp.${name}.enabled)`;
  return undefined;
}

/**
 * Starts one server again (the person's /mcp reconnect): its old process closed, its tools listed
 * anew and offered from the next step, the outcome recorded (seat mcp.connect, holder person).
 */
export async function reconnectServer(
  set: McpServerSet,
  io: {
    config: LoadedConfig;
    skip: ReadonlySet<string>;
    leftOut?: ReadonlyMap<string, string>;
    record?: (decision: Decision) => void;
    warn?: (text: string) => void;
  },
  name: string,
): Promise<ReconnectOutcome> {
  const refusal =
    decideReconnect(io.config, io.skip, name, set.get(name) !== undefined, io.leftOut) ??
    (set.get(name) ? undefined : `MCP server ${name} was not started`);
  // Refused, it is on record all the same: the person asked, and nothing was started.
  if (refusal) {
    io.record?.({ seat: "mcp.connect", subject: { server: name }, ...reconnectRefusal("not started again", refusal) });
    return { ok: false, problem: refusal };
  }
  const restarted = await set.restart(name);
  if (!restarted) return { ok: false, problem: `MCP server ${name} was not started` };
  const { entry, refused } = restarted;
  const answer = reconnectAnswer(name, entry.outcome, refusedOf(entry, refused));
  // Its prompts were listed anew with it: the person's slash commands from now.
  if (entry.prompts.length > 0) answer.reasons.push({ rule: "prompts", detail: `${entry.prompts.length} prompts` });
  io.record?.({ seat: "mcp.connect", subject: { server: name }, ...answer });
  if (!entry.outcome.ok) io.warn?.(failureText(name, entry.outcome, false));
  return { ok: true, entry };
}
