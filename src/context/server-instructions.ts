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
