import { dataDir } from "../../config/paths.js";
import { UsageError } from "../../errors.js";
import { checkModeName } from "../../permission/rules/modes.js";
import { forgetAddress, recordAddress } from "../../server/address.js";
import { DEFAULT_HOST, decideBind, isLoopback } from "../../server/bind.js";
import { SessionStore } from "../../store/session-store.js";
import { ownVersion } from "../../util/own-files.js";
import { out, warn } from "../output.js";
import { untilStopped } from "../until-stopped.js";

export interface ServeOptions {
  port?: string;
  host?: string;
  expose?: boolean;
  /** The permission mode of the sessions it creates that name none. */
  mode?: string;
}

/** The port bosun serve listens on unless told: opencode's is 4096, so another. */
export const DEFAULT_PORT = 4747;

/**
 * `bosun serve [--port n] [--host h] [--expose]`: the HTTP API in the foreground until SIGINT
 * or SIGTERM. Every request needs the token: made on first start, kept owner-only under the data
 * folder, and printed that once. A host beyond loopback needs --expose.
 */
export async function serve(options: ServeOptions): Promise<void> {
  const port = options.port === undefined ? DEFAULT_PORT : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a port number (0-65535), not "${options.port}"`);
  }
  if (options.mode !== undefined) checkModeName(options.mode);
  const host = options.host ?? DEFAULT_HOST;
  const bind = decideBind(host, options.expose === true);
  if (!bind.ok) throw new UsageError(bind.reason);

  const [{ serverApp }, { serverToken }, { serve: listen }, { Hub }, { openRuntime }] = await Promise.all([
    import("../../server/app.js"),
    import("../../server/token.js"),
    import("@hono/node-server"),
    import("../../server/hub.js"),
    import("../../runtime/open.js"),
  ]);
  const token = serverToken(dataDir());
  const store = SessionStore.open();
  // Sessions open as `bosun run` opens them: nobody at a terminal; asks go to the client.
  const hub = new Hub(
    (input) =>
      openRuntime({
        cwd: input.cwd,
        options: { ...(options.mode ? { mode: options.mode } : {}), ...input.options },
        // What a client asked for (POST /sessions) is the person's choice through the server, not a
        // flag anyone typed; the mode this server was started with is its own --mode.
        chosenThrough: {
          rule: "chosen through the server's client (POST /sessions)",
          source: `bosun serve on ${host}`,
        },
        ...(options.mode && input.options.mode === undefined
          ? { modeChoice: { rule: "bosun serve --mode", source: "--mode" } }
          : {}),
        interactive: false,
        // No prompt while opening: nobody could see an ask yet (a repository's command is left out, as headless).
        question: input.question,
        onDecision: input.onDecision,
        onLeaseLost: input.onLeaseLost,
        signal: input.signal,
        warn: input.warn,
      }),
    `the server (bosun serve on ${host})`,
    ownVersion(),
  );
  const app = serverApp({ store, token: token.token, version: ownVersion(), hub, loopbackOnly: isLoopback(host) });
  const server = await new Promise<ReturnType<typeof listen>>((resolve, reject) => {
    const started = listen({ fetch: app.fetch, port, hostname: host }, () => resolve(started));
    started.once("error", reject);
  }).catch((error: NodeJS.ErrnoException) => {
    store.close();
    const why = error.code === "EADDRINUSE" ? "the port is taken (choose another with --port)" : error.message;
    throw new UsageError(`cannot listen on ${host}:${port}: ${why}`);
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
  // bosun attach sends this machine's token to this origin only (not to whatever holds a port).
  recordAddress(dataDir(), origin);
  out(`bosun serve: listening on ${origin}`);
  if (token.created) out(`token (shown this once, kept in ${token.file}): ${token.token}`);
  else out(`token: in ${token.file} (owner-only)`);
  out("every request needs Authorization: Bearer <token>; the API is described at /openapi.json");
  if (options.mode === "auto") out("--mode auto: every session this server creates allows every call that would ask");

  await untilStopped();
  // Bounded: a client holding a connection open does not keep bosun from exiting.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2_000);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
  await hub.close();
  forgetAddress(dataDir());
  store.close();
  warn("bosun serve: stopped");
}
