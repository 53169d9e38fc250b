import { type AgentContext, methods } from "@agentclientprotocol/sdk";
import type { FileAccess } from "../contracts/tools.js";

/** Who supplies a file's text when the editor does: said in a call's result metadata (and so its ledger record). */
export const VIA_EDITOR_FS = "the editor (ACP fs)";

/**
 * Longest wait for the editor to give or take a file's text (`bosun acp --fs-timeout`): an editor
 * that never answers is not waited on forever; the call fails saying so, and nothing is written.
 */
export const FS_TIMEOUT_MS = 30_000;

/**
 * Most characters of one buffer taken from the editor: the edit tools work on the whole text in
 * memory (and diff it), so a client that answers with hundreds of megabytes is refused, not held.
 */
export const EDITOR_TEXT_MAX_CHARS = 16 * 1024 * 1024;

/** The buffer's text from the editor's answer, or an error naming what is wrong with it: only a bounded string is text. */
export function editorText(answer: { content?: unknown }, path: string): string {
  const content = answer?.content;
  if (typeof content !== "string") throw new Error(`the editor answered for ${path} without text`);
  if (content.length > EDITOR_TEXT_MAX_CHARS) {
    throw new Error(
      `the editor's buffer of ${path} holds ${content.length} characters, more than bosun takes (${EDITOR_TEXT_MAX_CHARS})`,
    );
  }
  return content;
}

/** What the editor said it can do with files at initialize (clientCapabilities.fs). */
export interface EditorFs {
  readTextFile?: boolean;
  writeTextFile?: boolean;
}

/**
 * The file tools' text through the editor, for the sides it offered: reads give its buffers
 * (unsaved edits included), writes go into them. Only bytes cross here: every path was judged
 * by bosun's gate (containment, rules, the person's answer) before a tool reaches this, so a
 * path the gate refused is never sent to the editor; an ask's diff reads a workspace file's
 * buffer before the answer, nothing else. None offered: undefined, the disk is used.
 */
export function editorFiles(
  client: AgentContext,
  sessionId: () => string | undefined,
  fs: EditorFs | undefined,
  timeoutMs: number = FS_TIMEOUT_MS,
): FileAccess | undefined {
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  const id = () => {
    const known = sessionId();
    if (!known) throw new Error("the session is not open yet");
    return known;
  };
  // The call's signal, or the editor's time running out: whichever comes first.
  type Options = { cancellationSignal: AbortSignal; stopWaitingOnCancel: true };
  const asked = async <T>(what: string, request: (options: Options) => Promise<T>, signal: AbortSignal): Promise<T> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await request({ cancellationSignal: AbortSignal.any([signal, timeout]), stopWaitingOnCancel: true });
    } catch (error) {
      // The SDK's words for a wait it stopped are about cancelling: say it was the editor's time that ran out.
      if (timeout.aborted && !signal.aborted) throw new Error(`the editor did not ${what} within ${timeoutMs} ms`);
      if (signal.aborted) throw error;
      throw new Error(`the editor answered with an error: ${editorWords(error)}`);
    }
  };
  return {
    via: VIA_EDITOR_FS,
    ...(fs.readTextFile
      ? {
          async read(path: string, signal: AbortSignal) {
            const answer = await asked(
              "give the file's text",
              (options) => client.request(methods.client.fs.readTextFile, { sessionId: id(), path }, options),
              signal,
            );
            return editorText(answer as { content?: unknown }, path);
          },
        }
      : {}),
    ...(fs.writeTextFile
      ? {
          async write(path: string, content: string, signal: AbortSignal) {
            await asked(
              "take the file's text",
              (options) => client.request(methods.client.fs.writeTextFile, { sessionId: id(), path, content }, options),
              signal,
            );
          },
        }
      : {}),
  };
}

/** An editor's error as the model can act on it: its message, and the details a JSON-RPC error carries. */
function editorWords(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const data = (error as { data?: unknown } | undefined)?.data;
  const details =
    data && typeof data === "object"
      ? ((data as { details?: unknown; message?: unknown }).details ?? (data as { message?: unknown }).message)
      : undefined;
  const said = typeof details === "string" && details !== message ? `${message} (${details})` : message;
  return said.split("\n")[0]?.slice(0, 300) ?? "error";
}
