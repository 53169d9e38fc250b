import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Where the authorization server sends the browser back, and the code it brings. */
export interface CallbackServer {
  /** http://127.0.0.1:<port>/callback */
  redirectUrl: string;
  /** The code of the first callback carrying `state`; rejects on an error there, or after the wait. */
  code: Promise<string>;
  close(): Promise<void>;
}

/** Thrown when nobody came back within the wait, or the authorization server said no. */
export class CallbackError extends Error {
  override name = "CallbackError";
}

/**
 * A one-use HTTP server on 127.0.0.1 at a free port, for the browser's return from signing in
 * (RFC 8252's loopback redirect). Only a request to /callback with the expected `state` counts:
 * another page's request, or one with another state (a forged return), is answered 400 and the
 * wait goes on. Bounded: no answer within `waitMs` rejects with what to do.
 */
export async function startCallbackServer(state: string, waitMs: number): Promise<CallbackServer> {
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may be listening for `code` yet when the wait ends; the caller reads it.
  code.catch(() => {});
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/callback" || url.searchParams.get("state") !== state) {
      page(res, 400, "This is not the sign-in bosun is waiting for.");
      return;
    }
    const error = url.searchParams.get("error");
    const given = url.searchParams.get("code");
    if (error !== null || !given) {
      const description = url.searchParams.get("error_description");
      page(res, 400, "Sign-in did not complete; see the terminal.");
      settle?.reject(
        new CallbackError(
          `the authorization server said ${error ?? "nothing"}${description ? `: ${description}` : ""}`,
        ),
      );
      return;
    }
    page(res, 200, "Signed in. You can close this tab and go back to the terminal.");
    settle?.resolve(given);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const timer = setTimeout(() => {
    settle?.reject(new CallbackError(`no sign-in came back within ${Math.round(waitMs / 1000)} s`));
  }, waitMs);
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code,
    async close() {
      clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function page(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(`<!doctype html><meta charset="utf-8"><title>bosun</title><p>${text}</p>\n`);
}
