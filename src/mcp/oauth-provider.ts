import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
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
 * to discover, register or send the person to sign in, NeedsSignInError instead (no browser, no
 * wait, no request to an authorization server nobody chose). "login": `bosun mcp login`, which
 * starts afresh and hands the authorization address to `open`.
 */
export type ProviderMode =
  | { kind: "run" }
  | { kind: "login"; redirectUrl: string; state: string; open: (url: URL) => Promise<void> | void };

type Record = Omit<StoredCredentials, "name" | "server">;

/** Where a run's provider says its redirect is, never used: a run never starts an authorization. */
const UNUSED_REDIRECT = "http://127.0.0.1/callback";

/**
 * The SDK's OAuth client for one remote server, keeping what it is given in the server's
 * credential file (oauth-store.ts) exactly as given: the SDK stamps client information and
 * tokens with the authorization server they belong to, and checks the stamp when reading.
 * A run reads the file afresh each time, so a refresh another run made is what it uses.
 */
export class BosunOAuthProvider implements OAuthClientProvider {
  private memory: Record = {};
  /** The access token last handed out: the one the server refused, when it refuses. */
  private seen: string | undefined;

  constructor(
    private readonly file: CredentialFile,
    private readonly mode: ProviderMode,
    private readonly settings: OAuthSettings = {},
  ) {}

  get redirectUrl(): string {
    if (this.mode.kind === "login") return this.mode.redirectUrl;
    const registered = (this.record().client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
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

  /** The SDK's first question when a server says 401: a run with nothing stored stops here, before any request. */
  discoveryState(): OAuthDiscoveryState | undefined {
    const record = this.record();
    if (this.mode.kind === "run" && !record.tokens) throw new NeedsSignInError(this.file.name);
    return record.discovery;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.save({ discovery });
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const stored = this.record().client;
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
    const tokens = this.record().tokens;
    this.seen = tokens?.access_token;
    return tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.save({ tokens });
  }

  saveCodeVerifier(codeVerifier: string): void {
    // A run never starts an authorization (redirectToAuthorization refuses): nothing to keep.
    if (this.mode.kind === "login") this.save({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.record().codeVerifier;
    if (!verifier) throw new Error("no sign-in was started (no code verifier is stored)");
    return verifier;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.mode.kind === "run") throw new NeedsSignInError(this.file.name);
    await this.mode.open(url);
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const next = { ...this.record() };
    if (scope === "all" || scope === "client") delete next.client;
    // Tokens another run saved meanwhile (its refresh) are not the ones refused here: kept.
    const replaced = next.tokens !== undefined && next.tokens.access_token !== this.seen;
    if (scope === "all" || (scope === "tokens" && !replaced)) delete next.tokens;
    if (scope === "all" || scope === "verifier") delete next.codeVerifier;
    if (scope === "all" || scope === "discovery") delete next.discovery;
    this.write(next);
  }

  /** What is stored: a run's from the file (another run may have refreshed), a login's as it goes. */
  private record(): Record {
    if (this.mode.kind === "login") return this.memory;
    const stored = readCredentials(this.file);
    const { name: _name, server: _server, ...record } = stored ?? { name: "", server: "" };
    return record;
  }

  private save(part: Partial<Record>): void {
    this.write({ ...this.record(), ...part });
  }

  private write(record: Record): void {
    this.memory = record;
    writeCredentials(this.file, record);
  }
}
