import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import { failureText, reconnectAnswer } from "./connect-answer.js";
import { type McpServerSet, refusedOf, type ServerEntry } from "./server-set.js";

/** How a reconnect ended: the server as it now stands, or why it was not started again. */
export type ReconnectOutcome = { ok: true; entry: ServerEntry } | { ok: false; problem: string };

/**
 * Why a configured server cannot be started again by the person, or undefined when it can: one
 * never started stays so — disabled by config, or a repository's server seat project.command
 * did not let run (reconnecting must not go around that judgement).
 */
export function decideReconnect(
  config: LoadedConfig,
  skip: ReadonlySet<string>,
  name: string,
  started: boolean,
): string | undefined {
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
    record?: (decision: Decision) => void;
    warn?: (text: string) => void;
  },
  name: string,
): Promise<ReconnectOutcome> {
  const refusal = decideReconnect(io.config, io.skip, name, set.get(name) !== undefined);
  if (refusal) return { ok: false, problem: refusal };
  const restarted = await set.restart(name);
  if (!restarted) return { ok: false, problem: `MCP server ${name} was not started` };
  const { entry, refused } = restarted;
  const answer = reconnectAnswer(name, entry.outcome, refusedOf(entry, refused));
  io.record?.({ seat: "mcp.connect", subject: { server: name }, ...answer });
  if (!entry.outcome.ok) io.warn?.(failureText(name, entry.outcome, false));
  return { ok: true, entry };
}
