import { UsageError } from "../../errors.js";
import { out, warn } from "../output.js";
import { untilStopped } from "../until-stopped.js";

/**
 * `bosun dev model-server --script <file> [--port N]`: runs the scripted model server in the
 * foreground until SIGINT or SIGTERM, logging each request and each failure to stderr.
 */
export async function modelServerCommand(options: { script: string; port?: string }): Promise<void> {
  const { loadScriptFile, startScriptedServer } = await import("../../devtools/model-server/index.js");
  let port: number | undefined;
  if (options.port !== undefined) {
    port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`--port must be a port number (0-65535), not "${options.port}"`);
    }
  }
  let script: ReturnType<typeof loadScriptFile>;
  try {
    script = loadScriptFile(options.script);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  try {
    server = await startScriptedServer(script, { port, log: (line) => warn(line) });
  } catch (error) {
    throw new UsageError(`cannot listen on 127.0.0.1:${port ?? 0}: ${(error as Error).message}`);
  }
  out(`scripted model server listening on ${server.url}`);
  out(`  openai-compatible, openai (chat and responses): baseURL ${server.baseURL}`);
  out(`  anthropic:                                      baseURL ${server.baseURL}`);
  out(`  endpoints: POST /v1/chat/completions, POST /v1/messages, POST /v1/responses, GET /v1/models`);

  await untilStopped();
  await server.close();
  const failed = server.failures.length;
  warn(`${server.requests.length} request(s), ${failed} failure(s)`);
  if (failed > 0) process.exitCode = 1;
}
