/** What `/mcp` was asked: how the servers stand, or to start one again. */
export type McpCommand =
  | { kind: "status" }
  | { kind: "reconnect"; server: string }
  | { kind: "usage"; problem: string };

/** `/mcp` alone, or `/mcp reconnect <name>`; anything else says how it is used. */
export function parseMcpCommand(args: string): McpCommand {
  const words = args.split(/\s+/).filter(Boolean);
  if (words.length === 0) return { kind: "status" };
  if (words[0] === "reconnect" && words.length === 2) return { kind: "reconnect", server: words[1] as string };
  return { kind: "usage", problem: "/mcp shows the MCP servers; /mcp reconnect <name> starts one again" };
}

/**
 * Why a /mcp command cannot run now, or undefined: a reconnect closes the server a running call
 * may be talking to, so it waits for no turn — it is refused, and the person says it again after.
 * Reading how the servers stand changes nothing and runs at once.
 */
export function refuseWhileBusy(command: McpCommand, turnRuns: boolean): string | undefined {
  if (command.kind !== "reconnect" || !turnRuns) return undefined;
  return `/mcp reconnect ${command.server}: not while a turn runs (its calls may be using the server); say it again when the turn ends`;
}
