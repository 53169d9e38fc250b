import type { InstructionFile } from "../context/instructions.js";
import { serverInstructionFiles, serverInstructionsChange } from "../context/server-instructions.js";
import type { Decision } from "../contracts/decisions.js";
import type { RunContext } from "../loop/step-context.js";
import type { McpConnections } from "../mcp/connect.js";

type Servers = Pick<McpConnections, "instructions" | "now" | "reconnect">;

/**
 * The run's instruction files with the MCP servers' part as the servers now stand: a server
 * started again (/mcp reconnect) may say something else of how to use it. The system prompt is
 * built from them only as a turn starts and when the tool set's version changed (a restart
 * always makes a new one), so the servers are asked again only then — and made again only when
 * that version moved: nothing is re-read at every step.
 */
export function followServerInstructions(context: RunContext, mcp: Servers): RunContext {
  const own = context.instructions.filter((file) => file.origin !== "mcp");
  let version = mcp.now().version;
  let files: InstructionFile[] = context.instructions;
  Object.defineProperty(context, "instructions", {
    enumerable: true,
    get() {
      const now = mcp.now().version;
      if (now !== version) {
        version = now;
        files = [...own, ...serverInstructionFiles(mcp.instructions())];
      }
      return files;
    },
  });
  return context;
}

/**
 * `/mcp reconnect` that also says when what the model is told of the server changed (seat
 * context.instructions; its mcp.connect answer is recorded by the MCP layer).
 */
export function reconnectFollowed(mcp: Servers, record: (decision: Decision) => void): McpConnections["reconnect"] {
  return async (name) => {
    const said = () => mcp.instructions().find((given) => given.server === name)?.text;
    const before = said();
    const outcome = await mcp.reconnect(name);
    if (outcome.ok) {
      const change = serverInstructionsChange(name, before, said());
      if (change) record(change);
    }
    return outcome;
  };
}
