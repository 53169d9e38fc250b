import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { BosunOAuthProvider, type OAuthSettings } from "./oauth-provider.js";
import { credentialFile } from "./oauth-store.js";

/** A server as config gives it, as far as OAuth goes. */
export interface OAuthServer {
  url?: string;
  headers?: Record<string, string>;
  oauth?: false | OAuthSettings;
}

/**
 * Whether a server signs in with OAuth when it asks: a url server, unless config says
 * `oauth: false` or sends its own Authorization header (a token of the person's, which the
 * OAuth token would otherwise be mixed with).
 */
export function usesOAuth(server: OAuthServer): boolean {
  if (server.url === undefined || server.oauth === false) return false;
  return !Object.keys(server.headers ?? {}).some((key) => key.toLowerCase() === "authorization");
}

/**
 * connect.ts's `authFor` for a normal run: each OAuth server gets a provider reading its stored
 * credentials (refreshed by the SDK when the server says the access token expired); one with
 * none fails to connect with "needs sign-in" — a run never opens a browser nor waits.
 */
export function runAuthFor(dataFolder: string) {
  return (name: string, server: OAuthServer): OAuthClientProvider | undefined => {
    if (!usesOAuth(server) || server.url === undefined) return undefined;
    const settings = server.oauth === false ? {} : (server.oauth ?? {});
    return new BosunOAuthProvider(credentialFile(dataFolder, name, server.url), { kind: "run" }, settings);
  };
}
