import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";

/** An OAuth-protected MCP server for tests, on 127.0.0.1 at a free port. */
export interface OAuthMcpServer {
  /** The MCP endpoint: http://127.0.0.1:<port>/mcp */
  url: string;
  /** What it was asked: metadata documents, registrations, authorizations, code exchanges, refreshes, calls with a valid token. */
  counts: {
    metadata: number;
    registered: number;
    authorized: number;
    exchanged: number;
    refreshed: number;
    served: number;
  };
  /** Forgets every token it gave (a server that lost them): a refresh is then refused. */
  forgetTokens(): void;
  close(): Promise<void>;
}

// express is the SDK's dependency, without types here: loaded by a name TypeScript does not resolve.
const EXPRESS: string = "express";

interface Issued {
  clientId: string;
  expiresAt: number;
  resource?: URL;
}

/**
 * An authorization server that approves every request at once (the browser is sent straight
 * back to the redirect_uri with a code), with dynamic registration, PKCE (checked by the SDK's
 * token handler) and refresh tokens; access tokens live `accessTtlMs`.
 */
class AutoApprove implements OAuthServerProvider {
  readonly counts = { metadata: 0, registered: 0, authorized: 0, exchanged: 0, refreshed: 0, served: 0 };
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, { client: string; params: AuthorizationParams }>();
  readonly access = new Map<string, Issued>();
  readonly refresh = new Map<string, Issued>();
  constructor(private readonly accessTtlMs: number) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        this.counts.registered++;
        const full = client as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: unknown): Promise<void> {
    this.counts.authorized++;
    const code = randomUUID();
    this.codes.set(code, { client: client.client_id, params });
    const back = new URL(params.redirectUri);
    back.searchParams.set("code", code);
    if (params.state !== undefined) back.searchParams.set("state", params.state);
    (res as { redirect(url: string): void }).redirect(back.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = this.codes.get(code);
    if (!found) throw new InvalidGrantError("unknown code");
    return found.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const found = this.codes.get(code);
    if (!found || found.client !== client.client_id) throw new InvalidGrantError("unknown code");
    this.codes.delete(code);
    this.counts.exchanged++;
    return this.issue(client.client_id, found.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, token: string): Promise<OAuthTokens> {
    const found = this.refresh.get(token);
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.refresh.delete(token);
    this.counts.refreshed++;
    return this.issue(client.client_id, found.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    if (!found || found.expiresAt < Date.now()) throw new InvalidTokenError("unknown or expired token");
    return {
      token,
      clientId: found.clientId,
      scopes: [],
      expiresAt: found.expiresAt / 1000,
      ...(found.resource ? { resource: found.resource } : {}),
    };
  }

  private issue(clientId: string, resource: URL | undefined): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    const issued = { clientId, expiresAt: Date.now() + this.accessTtlMs, ...(resource ? { resource } : {}) };
    this.access.set(access, issued);
    this.refresh.set(refresh, issued);
    return {
      access_token: access,
      token_type: "bearer",
      expires_in: Math.ceil(this.accessTtlMs / 1000),
      refresh_token: refresh,
    };
  }
}

function toolServer(): McpServer {
  const server = new McpServer({ name: "guarded", version: "1.0.0" });
  server.registerTool(
    "secret",
    { description: "Tells the secret to a signed-in client", inputSchema: { who: z.string() } },
    async ({ who }) => ({ content: [{ type: "text", text: `the secret for ${who} is 42` }] }),
  );
  return server;
}

/**
 * One port for both: the authorization server (the SDK's mcpAuthRouter: metadata, /register,
 * /authorize, /token) and the MCP endpoint /mcp behind requireBearerAuth, which answers 401 with
 * the resource metadata's address, as the MCP authorization spec has it.
 */
export async function startOAuthMcpServer(options: { accessTtlMs?: number } = {}): Promise<OAuthMcpServer> {
  const { default: express } = (await import(EXPRESS)) as { default: () => ExpressApp };
  const provider = new AutoApprove(options.accessTtlMs ?? 60_000);
  const app = express();
  const http: Server = createServer(app as unknown as Parameters<typeof createServer>[1]);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const base = new URL(`http://127.0.0.1:${port}/`);
  const mcpUrl = new URL("/mcp", base);
  app.use((req: { path: string }, _res: unknown, next: () => void) => {
    if (req.path.startsWith("/.well-known/")) provider.counts.metadata++;
    next();
  });
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  app.all("/mcp", bearer, async (req: unknown, res: unknown) => {
    provider.counts.served++;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const response = res as import("node:http").ServerResponse;
    response.on("close", () => void transport.close());
    await toolServer().connect(transport);
    await transport.handleRequest(req as import("node:http").IncomingMessage, response);
  });
  return {
    url: mcpUrl.href,
    counts: provider.counts,
    forgetTokens() {
      provider.access.clear();
      provider.refresh.clear();
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The little of express used here. */
interface ExpressApp {
  use(handler: unknown): void;
  all(path: string, ...handlers: unknown[]): void;
}
