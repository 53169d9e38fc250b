import { Readable, Writable } from "node:stream";
import { UsageError } from "../../errors.js";
import { checkModeName } from "../../permission/rules/modes.js";
import { SessionStore } from "../../store/session-store.js";
import { ownVersion } from "../../util/own-files.js";
import { printableText } from "../../util/printable.js";

export interface AcpOptions {
  /** The permission mode of the sessions it creates; else config's, as at the terminal. */
  mode?: string;
  /** Milliseconds to wait for the editor to give or take a file's text (ACP fs). */
  fsTimeout?: string;
}

/**
 * `bosun acp`: an ACP agent on stdin/stdout for an editor (Zed's agent_servers) until the editor
 * closes stdin. stdout is the protocol's alone: bosun's warnings go to stderr, which editors log.
 * When the editor goes, every ask still waiting is a deny and every session is let go.
 */
export async function acp(options: AcpOptions): Promise<void> {
  if (options.mode !== undefined) checkModeName(options.mode);
  const fsTimeoutMs = fsTimeoutOf(options.fsTimeout);
  const [{ ndJsonStream }, { bosunAgent }, { HeldSessions }, { openRuntime }] = await Promise.all([
    import("@agentclientprotocol/sdk"),
    import("../../acp/agent.js"),
    import("../../acp/held.js"),
    import("../../runtime/open.js"),
  ]);
  const log = (text: string) => process.stderr.write(`bosun acp: ${printableText(text)}\n`);
  const store = SessionStore.open();
  // Sessions open as bosun serve opens them: nobody at a terminal; asks go to the editor, per turn.
  const sessions = new HeldSessions((input) =>
    openRuntime({
      cwd: input.cwd,
      options: input.options,
      configFlags: input.configFlags,
      interactive: false,
      ...(input.cwdUnasked ? { cwdUnasked: input.cwdUnasked } : {}),
      ...(input.modeChoice ? { modeChoice: input.modeChoice } : {}),
      ...(input.question ? { question: input.question } : {}),
      ...(input.access ? { access: input.access } : {}),
      onDecision: () => {},
      onLeaseLost: input.onLeaseLost,
      signal: input.signal,
      warn: log,
    }),
  );
  if (options.mode === "auto") log("--mode auto: every session it creates allows every call that would ask");
  const app = bosunAgent({
    sessions,
    store,
    version: ownVersion(),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(fsTimeoutMs !== undefined ? { fsTimeoutMs } : {}),
    log,
  });
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const stop = () => connection.close();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  await connection.closed.catch(() => undefined);
  process.off("SIGTERM", stop);
  process.off("SIGINT", stop);
  await sessions.close("the editor disconnected");
  store.close();
}

/** --fs-timeout: whole milliseconds, more than none; else a usage error (exit 2). */
function fsTimeoutOf(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  if (!/^\d+$/.test(flag) || Number(flag) <= 0 || !Number.isSafeInteger(Number(flag))) {
    throw new UsageError(`--fs-timeout must be a positive whole number of milliseconds, not "${flag}"`);
  }
  return Number(flag);
}
