import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { type CredentialFile, readCredentials, type StoredCredentials, writeCredentials } from "./oauth-store.js";
import { NeedsSignInError } from "./sign-in.js";

/** What config says of a server's OAuth (mcp.<name>.oauth), when it says anything. */
export interface OAuthSettings {
  client_id?: string;
  scope?: string;
}

/**
 * "run": a normal run — stored credentials are used and refreshed, and where the SDK would go on
 * to register or send the person to sign in, NeedsSignInError instead (no browser, no wait, no
 * registration with a server nobody asked to sign in to). "login": `bosun mcp login`, which
 * starts afresh and hands the authorization address to `open`.
 */
export type ProviderMode =
  | { kind: "run" }
  | { kind: "login"; redirectUrl: string; state: string; open: (url: URL) => Promise<void> | void };

/** Where a run's provider says its redirect is, never used: a run never starts an authorization. */
const UNUSED_REDIRECT = "http://127.0.0.1/callback";

/**
 * The SDK's OAuth client for one remote server, keeping what it is given in the server's
 * credential file (oauth-store.ts) exactly as given: the SDK stamps client information and
 * tokens with the authorization server they belong to, and checks the stamp when reading.
 */
export class BosunOAuthProvider implements OAuthClientProvider {
  private record: Omit<StoredCredentials, "name" | "server">;

  constructor(
    private readonly file: CredentialFile,
    private readonly mode: ProviderMode,
    private readonly settings: OAuthSettings = {},
  ) {
    // A login starts afresh: its redirect address (a new port) needs a new registration.
    const stored = mode.kind === "run" ? readCredentials(file) : undefined;
    this.record = {
      ...(stored?.client ? { client: stored.client } : {}),
      ...(stored?.tokens ? { tokens: stored.tokens } : {}),
      ...(stored?.codeVerifier ? { codeVerifier: stored.codeVerifier } : {}),
    };
  }

  get redirectUrl(): string {
    if (this.mode.kind === "login") return this.mode.redirectUrl;
    const registered = (this.record.client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    return Array.isArray(registered) && typeof registered[0] === "string" ? registered[0] : UNUSED_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "bosun",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A command-line program cannot keep a secret: a public client, PKCE its proof.
      token_endpoint_auth_method: "none",
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
    };
  }

  state(): string {
    return this.mode.kind === "login" ? this.mode.state : randomBytes(16).toString("hex");
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const stored = this.record.client;
    const configured = this.settings.client_id;
    if (configured !== undefined) return stored?.client_id === configured ? stored : { client_id: configured };
    // Nothing stored means a registration next: only the person's login may do that.
    if (!stored && this.mode.kind === "run") throw new NeedsSignInError(this.file.name);
    return stored;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.save({ client });
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.save({ tokens });
  }

  saveCodeVerifier(codeVerifier: string): void {
    // A run never starts an authorization (redirectToAuthorization refuses): nothing to keep.
    if (this.mode.kind === "login") this.save({ codeVerifier });
  }

  codeVerifier(): string {
    if (!this.record.codeVerifier) throw new Error("no sign-in was started (no code verifier is stored)");
    return this.record.codeVerifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.mode.kind === "run") throw new NeedsSignInError(this.file.name);
    await this.mode.open(url);
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const next = { ...this.record };
    if (scope === "all" || scope === "client") delete next.client;
    if (scope === "all" || scope === "tokens") delete next.tokens;
    if (scope === "all" || scope === "verifier") delete next.codeVerifier;
    if (scope === "discovery") return;
    this.record = next;
    writeCredentials(this.file, this.record);
  }

  private save(part: Partial<Omit<StoredCredentials, "name" | "server">>): void {
    this.record = { ...this.record, ...part };
    writeCredentials(this.file, this.record);
  }
}
