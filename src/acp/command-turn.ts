import type { ContentBlock, StopReason } from "@agentclientprotocol/sdk";
import { expandCommand } from "../input/expand-command.js";
import { goalAnswer } from "../input/goal-command.js";
import { initPrompt } from "../input/init-prompt.js";
import { inputDecision, parseInput } from "../input/slash.js";
import { notOffered, switchRefusal } from "./commands.js";
import type { Held } from "./held.js";
import { askEditor, promptTurn, type TurnIo } from "./turn.js";

/**
 * One session/prompt whose text starts with a slash command, as the terminal reads one (seat
 * input.command, the person's): `/goal` sets, shows or clears the thread's goal; `/init` is its
 * prompt's turn; a custom command is its message's turn (spans run through the call pipeline,
 * asks to the editor); a built-in the editor does not offer is answered with where it lives.
 * Anything else is an ordinary turn. Only the first block is read as the command: the rest
 * (links, embedded files) go with its message.
 */
export async function editorTurn(
  held: Held,
  prompt: readonly ContentBlock[],
  io: TurnIo,
): Promise<{ stopReason: StopReason }> {
  const [first, ...rest] = prompt;
  if (first?.type !== "text" || !first.text.trimStart().startsWith("/")) return promptTurn(held, prompt, io);
  const parsed = parseInput(first.text, held.customs.commands);
  const { runtime } = held;
  const withText = (text: string) => promptTurn(held, [{ type: "text", text }, ...rest], io);
  switch (parsed.kind) {
    case "text":
    case "bang":
      return promptTurn(held, prompt, io);
    case "builtin": {
      record(held, inputDecision(parsed, { customs: held.customs.commands }));
      if (parsed.name === "init") return withText(initPrompt(held.cwd));
      if (parsed.name === "goal") {
        const { goal, text } = goalAnswer(held.goal, parsed.args, runtime.config.config.goal);
        held.goal = goal;
        if (!goal) delete held.goal;
        return reply(io, text);
      }
      return reply(io, notOffered(parsed.name) ?? `/${parsed.name}`);
    }
    case "custom": {
      const refused = switchRefusal(parsed.command, { agent: runtime.agent, model: runtime.model.ref });
      if (refused) {
        record(held, inputDecision(parsed, { shadowed: held.customs.shadowed }));
        runtime.record(refused.decision);
        return reply(io, refused.message);
      }
      if (held.turn) return promptTurn(held, prompt, io); // refused there, as a second turn is
      let expansion: Awaited<ReturnType<typeof expandCommand>>;
      try {
        expansion = await expandCommand(async () => runtime, parsed.command, parsed.args, {
          cwd: held.cwd,
          prompt: askEditor(held, io),
          signal: io.gone,
        });
      } catch (error) {
        record(held, inputDecision(parsed, { shadowed: held.customs.shadowed }));
        return reply(io, `/${parsed.command.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      record(held, inputDecision(parsed, { shadowed: held.customs.shadowed, expansion }));
      return withText(expansion.text);
    }
  }
}

function record(held: Held, decision: ReturnType<typeof inputDecision>): void {
  if (decision) held.runtime.record(decision);
}

/** A command's answer as the agent's message in the thread; the turn ends there, nothing sent to the model. */
async function reply(io: TurnIo, text: string): Promise<{ stopReason: StopReason }> {
  io.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  await io.flushed();
  return { stopReason: "end_turn" };
}
