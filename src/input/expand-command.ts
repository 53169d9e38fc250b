import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { Runtime } from "../runtime/open.js";
import { spanRunner } from "./bang.js";
import { type CustomCommand, type Expansion, expandTemplate, splitArguments } from "./custom-commands.js";

/** What expanding a command needs of the session: its call pipeline and its MCP prompts. */
export type CommandSession = Pick<Runtime, "runCall" | "runSpan" | "mcpPrompt">;

/**
 * A custom command's message for the person's words, wherever they typed it (the terminal, an
 * editor over ACP). An MCP prompt is the server's message, the words its arguments, nothing runs
 * here. Your own command's spans run as you (a `!cmd` each, through the call pipeline); a
 * repository's are judged like any shell call first, asked through `prompt`.
 */
export async function expandCommand(
  session: () => Promise<CommandSession>,
  command: CustomCommand,
  args: string,
  io: { cwd: string; prompt: ApprovalPrompt; signal: AbortSignal },
): Promise<Expansion> {
  const { cwd, prompt, signal } = io;
  if (command.mcp) {
    const got = await (await session()).mcpPrompt(command.mcp, splitArguments(args), signal);
    if (!got.ok) throw new Error(got.problem);
    return { text: got.text, ran: [] };
  }
  const run =
    command.scope === "global"
      ? spanRunner({ cwd, signal }, async (call) => (await session()).runCall(call, { signal, prompt }))
      : async (span: string) => (await session()).runSpan(span, prompt, signal);
  return expandTemplate(command.template, args, run);
}
