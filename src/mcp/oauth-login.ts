import { randomBytes } from "node:crypto";
import { startCallbackServer } from "./oauth-callback.js";
import { BosunOAuthProvider, type OAuthSettings } from "./oauth-provider.js";
import { type CredentialFile, credentialFile } from "./oauth-store.js";

/** What a sign-in needs besides the server: where it keeps credentials, and how it reaches the person. */
export interface SignInOptions {
  dataFolder: string;
  /** Opens the authorization address for the person (their browser); printing it is the caller's too. */
  open(url: URL): Promise<void> | void;
  /** How long to wait for the browser to come back. */
  waitMs: number;
}

/**
 * `bosun mcp login`: the SDK's authorization code flow with PKCE for one url server — it finds
 * the authorization server, registers bosun (unless config gives a client id), and sends the
 * person to sign in; the browser comes back to a loopback server with the code, which the SDK
 * exchanges for tokens. Everything is saved in the server's credential file as it comes.
 * Returns that file. Throws with the SDK's or the callback's reason.
 */
export async function signIn(
  name: string,
  server: { url: string; oauth?: false | OAuthSettings },
  options: SignInOptions,
): Promise<CredentialFile> {
  const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const state = randomBytes(16).toString("hex");
  const callback = await startCallbackServer(state, options.waitMs);
  try {
    const file = credentialFile(options.dataFolder, name, server.url);
    const settings = server.oauth === false ? {} : (server.oauth ?? {});
    const mode = { kind: "login" as const, redirectUrl: callback.redirectUrl, state, open: options.open };
    const provider = new BosunOAuthProvider(file, mode, settings);
    const first = await auth(provider, { serverUrl: server.url });
    if (first === "REDIRECT") {
      const code = await callback.code;
      const second = await auth(provider, { serverUrl: server.url, authorizationCode: code });
      if (second !== "AUTHORIZED") throw new Error("the authorization server did not give tokens for the code");
    }
    return file;
  } finally {
    await callback.close();
  }
}
