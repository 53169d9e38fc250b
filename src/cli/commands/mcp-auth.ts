import { whereSet } from "../../config/load.js";
import { dataDir } from "../../config/paths.js";
import { BosunError, UsageError } from "../../errors.js";
import { usesOAuth } from "../../mcp/oauth.js";
import { boundAddress } from "../../mcp/oauth-store.js";
import { out } from "../output.js";
import { loadForCommand } from "./config.js";

/** How long `bosun mcp login` waits for the browser to come back. */
const SIGN_IN_WAIT_MS = 5 * 60_000;

/** The names config allows for a server (config/schema.ts), checked before anything is read. */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * `bosun mcp login <name>`: signs in to a url server of the resolved config with OAuth — the
 * authorization address is printed and opened (BOSUN_OPEN_URL_COMMAND, or the system's
 * opener), the browser comes back to 127.0.0.1, and the tokens are stored owner-only for runs
 * to use. Only the person starts this: a run never does (mcp.connect says "needs sign-in").
 */
export async function mcpLogin(name: string): Promise<void> {
  const server = configuredServer(name);
  const { signIn } = await import("../../mcp/oauth-login.js");
  const { openUrl } = await import("../open-url.js");
  out(
    `Signing in to MCP server "${name}" at ${boundAddress(server.url)}${server.from ? ` (set in ${server.from})` : ""}`,
  );
  let file: { path: string };
  try {
    file = await signIn(name, server, {
      dataFolder: dataDir(),
      waitMs: SIGN_IN_WAIT_MS,
      open: (url) => {
        out(`Open this address to sign in (waiting up to ${SIGN_IN_WAIT_MS / 60_000} minutes):\n  ${url.href}`);
        openUrl(url.href);
      },
    });
  } catch (error) {
    throw new BosunError(`signing in to "${name}" failed: ${reasonOf(error)}`, 1);
  }
  out(`Signed in to "${name}"; credentials saved in ${file.path}`);
}

/** `bosun mcp logout <name>`: removes the server's stored credentials, and says whether there were any. */
export async function mcpLogout(name: string): Promise<void> {
  checkName(name);
  const { removeCredentials } = await import("../../mcp/oauth-store.js");
  const removed = removeCredentials(dataDir(), name);
  if (removed > 0) {
    out(`Signed out of "${name}": stored credentials removed`);
    return;
  }
  // Nothing stored: fine for a server config has; a name it does not have is likely a typo.
  if (loadForCommand().config.mcp?.[name] === undefined) {
    throw new UsageError(`no MCP server "${name}" in config, and no stored credentials for it`);
  }
  out(`No stored credentials for "${name}"; nothing to remove`);
}

function checkName(name: string): void {
  if (!SERVER_NAME.test(name)) {
    throw new UsageError(`"${name}" is not an MCP server name (letters, digits, _ and - only)`);
  }
}

/** The url server `name` of the resolved config that signs in with OAuth, and where it was set. */
function configuredServer(name: string) {
  checkName(name);
  const loaded = loadForCommand();
  const server = loaded.config.mcp?.[name];
  if (server === undefined) {
    const names = Object.keys(loaded.config.mcp ?? {});
    throw new UsageError(
      `no MCP server "${name}" in config${names.length > 0 ? ` (there are: ${names.join(", ")})` : ""}`,
    );
  }
  if (server.url === undefined) {
    throw new UsageError(`MCP server "${name}" runs a command (stdio); only a url server signs in`);
  }
  if (!usesOAuth(server)) {
    throw new UsageError(
      `MCP server "${name}" does not sign in with OAuth (mcp.${name}.oauth is false, or it sends its own Authorization header)`,
    );
  }
  const from = whereSet(loaded, `mcp.${name}.url`);
  return { ...server, url: server.url, ...(from ? { from } : {}) };
}

/** An error's message, with its cause's when it has one ("fetch failed" alone says little). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
