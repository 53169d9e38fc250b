import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ConnectOutcome } from "./connect-answer.js";
import { listAllTools } from "./list-tools.js";
import { isSignIn } from "./sign-in.js";
import { StderrTail } from "./stderr-tail.js";
import type { McpToolInfo } from "./tool.js";

/** A server started: its client, and its tools as it listed them. */
export interface StartedServer {
  client: Client;
  infos: McpToolInfo[];
  /** What it said of how to use it, when it said anything. */
  instructions?: string;
}

/** One way to reach a server: what it is called in the ledger, and how to make its transport. */
export interface TransportPlan {
  label: string;
  make(tail: StderrTail): Transport;
}

/**
 * Connects to one server and lists all its tools, within `timeoutMs` in all: a server that
 * hangs is given up like one that exits, and its process closed. Never throws: the outcome
 * says why, with the end of its stderr.
 */
export async function startServer(
  newClient: () => Client,
  plans: readonly TransportPlan[],
  timeoutMs: number,
): Promise<{ outcome: ConnectOutcome; started?: StartedServer }> {
  const tail = new StderrTail();
  let outcome: ConnectOutcome = { ok: false, message: "no transport", stderr: [], transport: "none" };
  for (const plan of plans) {
    const client = newClient();
    try {
      const infos = await bounded(connectAndList(client, plan.make(tail), timeoutMs), timeoutMs);
      const instructions = client.getInstructions();
      return {
        outcome: { ok: true, tools: infos.length, transport: plan.label },
        started: { client, infos, ...(instructions ? { instructions } : {}) },
      };
    } catch (error) {
      await client.close().catch(() => {});
      // The process's last stderr may still be on its way after its pipe closed.
      await new Promise((resolve) => setImmediate(resolve));
      const message = (error as Error).message;
      outcome = {
        ok: false,
        message,
        stderr: tail.lines(),
        transport: plan.label,
        ...(isSignIn(error) ? { signIn: true } : {}),
      };
      if (!fallsBack(error)) break;
    }
  }
  return { outcome };
}

async function connectAndList(client: Client, transport: Transport, timeout: number): Promise<McpToolInfo[]> {
  await client.connect(transport, { timeout });
  return listAllTools(client, timeout);
}

/** Rejects after `ms`: the SDK's own timeouts bound each request, not a spawn that never answers. */
function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Whether the next plan is worth trying: a Streamable HTTP endpoint that answers 4xx may be an
 * older SSE server. Anything else (refused, timed out, crashed) would fail the same way again.
 */
function fallsBack(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "number" && code >= 400 && code < 500;
}
