/** How bosun can reach a server. */
export type TransportKind = "stdio" | "http" | "sse";

/**
 * Which transports to try, in order: the configured `type` alone; else stdio for a command, and
 * for a url Streamable HTTP then SSE (start-server.ts moves on only after a 4xx, which is how an
 * older SSE-only server answers a Streamable HTTP request). Config has made sure exactly one of
 * command and url is given.
 */
export function transportKinds(server: { command?: string; url?: string; type?: TransportKind }): TransportKind[] {
  if (server.type) return [server.type];
  return server.command !== undefined ? ["stdio"] : ["http", "sse"];
}
