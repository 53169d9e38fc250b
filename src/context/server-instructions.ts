import type { Decision } from "../contracts/decisions.js";
import type { InstructionFile } from "./instructions.js";

/** A server's instructions beyond this are cut: each server gets a share of the prompt, not all of it. */
export const SERVER_INSTRUCTION_CHARS = 4000;

/** What a server said of how to use it (its initialize result's `instructions`). */
export interface ServerInstructions {
  server: string;
  text: string;
}

/**
 * A server's instructions as an instruction "file" of the system prompt, after the files
 * (seat context.instructions lists it with its size, and says when it was cut). Empty
 * instructions add nothing.
 */
export function serverInstructionFiles(given: readonly ServerInstructions[]): InstructionFile[] {
  return given
    .filter((entry) => entry.text.trim() !== "")
    .map(({ server, text }) => {
      const cut = text.length > SERVER_INSTRUCTION_CHARS;
      return {
        path: `MCP server ${server}`,
        origin: "mcp" as const,
        content: cut
          ? `${text.slice(0, SERVER_INSTRUCTION_CHARS)}\n[… cut at ${SERVER_INSTRUCTION_CHARS} of ${text.length} characters]`
          : text,
        ...(cut ? { note: `cut at ${SERVER_INSTRUCTION_CHARS} of ${text.length} chars` } : {}),
      };
    });
}

/**
 * Seat context.instructions when a server started again (/mcp reconnect) says something else of
 * how to use it: what the system prompt holds of it from the next step (its file, or nothing
 * when it now says nothing), or undefined when it said the same — nothing the model sees changed.
 */
export function serverInstructionsChange(
  server: string,
  before: string | undefined,
  after: string | undefined,
): Decision<string[]> | undefined {
  const was = serverInstructionFiles(before ? [{ server, text: before }] : [])[0];
  const now = serverInstructionFiles(after ? [{ server, text: after }] : [])[0];
  if (was?.content === now?.content) return undefined;
  const detail = now
    ? `MCP server ${server} was started again and its instructions changed (${now.content.length} chars${now.note ? `, ${now.note}` : ""}${was ? `, were ${was.content.length}` : ", were none"}): in the system prompt from the next step`
    : `MCP server ${server} was started again and gives no instructions now (were ${was?.content.length ?? 0} chars): gone from the system prompt from the next step`;
  return {
    seat: "context.instructions",
    holder: "code",
    answer: now ? [now.path] : [],
    reasons: [{ rule: "server instructions changed", detail, source: `MCP server ${server}`, decisive: true }],
    subject: { server },
  };
}
