import { type AgentContext, methods } from "@agentclientprotocol/sdk";
import type { FileAccess } from "../contracts/tools.js";

/** Who supplies a file's text when the editor does: said in a call's result metadata (and so its ledger record). */
export const VIA_EDITOR_FS = "the editor (ACP fs)";

/** Longest wait for the editor to give or take a file's text: an editor that never answers is not waited on forever. */
const FS_TIMEOUT_MS = 30_000;

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
 * path the gate refused is never sent to the editor. None offered: undefined, the disk is used.
 */
export function editorFiles(
  client: AgentContext,
  sessionId: () => string | undefined,
  fs: EditorFs | undefined,
): FileAccess | undefined {
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  const id = () => {
    const known = sessionId();
    if (!known) throw new Error("the session is not open yet");
    return known;
  };
  const options = (signal: AbortSignal) => ({ cancellationSignal: bounded(signal), stopWaitingOnCancel: true });
  return {
    via: VIA_EDITOR_FS,
    ...(fs.readTextFile
      ? {
          async read(path: string, signal: AbortSignal) {
            const answer = await client.request(
              methods.client.fs.readTextFile,
              { sessionId: id(), path },
              options(signal),
            );
            return editorText(answer as { content?: unknown }, path);
          },
        }
      : {}),
    ...(fs.writeTextFile
      ? {
          async write(path: string, content: string, signal: AbortSignal) {
            await client.request(methods.client.fs.writeTextFile, { sessionId: id(), path, content }, options(signal));
          },
        }
      : {}),
  };
}

/** The call's signal, or the editor's time running out: whichever comes first. */
function bounded(signal: AbortSignal): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(FS_TIMEOUT_MS)]);
}
