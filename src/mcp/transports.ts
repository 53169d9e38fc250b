import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Confinement } from "../contracts/confinement.js";
import { bwrapProgram, confinedArgv } from "../permission/gate/sandbox.js";
import type { TransportPlan } from "./start-server.js";

type StdioModule = typeof import("@modelcontextprotocol/sdk/client/stdio.js");
type HttpModule = typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
type SseModule = typeof import("@modelcontextprotocol/sdk/client/sse.js");

/** A stdio server as config gives it. */
export interface StdioServer {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/**
 * How a stdio server is started: its own command, or bwrap running it when the repository's
 * server is confined (seat exec.sandbox). Its stderr is piped into the tail, never shown raw
 * and never thrown away: it is what says why a server failed.
 */
export function stdioPlan(
  sdk: StdioModule,
  server: StdioServer,
  cwd: string,
  confine: Confinement | undefined,
): TransportPlan {
  const argv = [server.command, ...(server.args ?? [])];
  const [command, ...args] = confine ? [bwrapProgram(), ...confinedArgv(confine, cwd, argv)] : argv;
  return {
    label: `stdio ${server.command}`,
    make(tail) {
      const transport = new sdk.StdioClientTransport({
        command: command as string,
        args,
        // The SDK's short list (PATH, HOME, ...) and what the config gives: never the user's keys.
        env: { ...sdk.getDefaultEnvironment(), ...server.env },
        cwd,
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer | string) => tail.push(String(chunk)));
      return transport;
    },
  };
}

/** A remote server as config gives it (its headers' `{env:}` already resolved by config). */
export interface RemoteServer {
  url: string;
  headers?: Record<string, string>;
}

/**
 * How a remote server is reached: Streamable HTTP or the older SSE, with the config's headers on
 * every request and, when one is given (another module's OAuth), the provider that signs them in.
 */
export function remotePlan(
  kind: "http" | "sse",
  sdk: { http: HttpModule; sse: SseModule },
  server: RemoteServer,
  authProvider: OAuthClientProvider | undefined,
): TransportPlan {
  const options = {
    ...(server.headers ? { requestInit: { headers: server.headers } } : {}),
    ...(authProvider ? { authProvider } : {}),
  };
  // The URL without its query: a token there stays out of the ledger.
  const shown = new URL(server.url);
  return {
    label: `${kind} ${shown.origin}${shown.pathname}`,
    make: () =>
      kind === "http"
        ? new sdk.http.StreamableHTTPClientTransport(new URL(server.url), options)
        : new sdk.sse.SSEClientTransport(new URL(server.url), options),
  };
}
