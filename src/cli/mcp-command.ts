import { parseMcpCommand } from "../input/mcp-command.js";
import { reconnectRefusal } from "../mcp/connect-answer.js";
import { serverLines, statusText } from "../mcp/status-text.js";
import type { SessionSlot } from "./session-slot.js";

/**
 * `/mcp` in the interactive session: how the live session's servers stand, or one started again
 * (recorded by the runtime, seat mcp.connect, holder person) and how it stands now.
 */
export async function mcpCommandText(slot: SessionSlot, args: string): Promise<string> {
  const command = parseMcpCommand(args);
  if (command.kind === "usage") return command.problem;
  const live = slot.live;
  if (!live) return slot.blockedNow ?? "the session is still opening";
  if (command.kind === "status") return statusText(live.mcpStatus());
  const done = await live.mcpReconnect(command.server);
  if (!done.ok) return `/mcp reconnect: ${done.problem}`;
  const { outcome } = done.entry;
  const line = outcome.ok
    ? `started ${command.server} again: connected · ${outcome.tools} tool${outcome.tools === 1 ? "" : "s"}, offered from the next step`
    : `started ${command.server} again: it failed, its tools stay missing`;
  const now = live.mcpStatus().find((server) => server.name === command.server);
  return [line, ...(now ? serverLines(now) : [])].join("\n");
}

/**
 * A reconnect refused while a turn runs, on record (seat mcp.connect, holder person, "refused"):
 * the turn's session is open then, so it is recorded at once; there is nothing to record in none.
 */
export function recordMcpRefusal(slot: SessionSlot, server: string, problem: string): void {
  slot.live?.record({ seat: "mcp.connect", subject: { server }, ...reconnectRefusal("turn running", problem) });
}
