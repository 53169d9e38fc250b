import { BosunError } from "../errors.js";
import { splitArguments } from "../input/custom-commands.js";
import type { TurnOutcome } from "../loop/turn.js";
import type { SessionOptions } from "../runtime/open.js";
import type { InteractiveRunner } from "../tui/runner.js";
import { prepareRecipeRun, type RecipeRun, untilResponse } from "./recipe-run.js";
import type { SessionSlot } from "./session-slot.js";

type RecipeAnswer = Awaited<ReturnType<NonNullable<InteractiveRunner["recipe"]>>>;
type TurnIo = Parameters<InteractiveRunner["turn"]>[1];

/**
 * `/recipe [<name|file> [k=v ...]]` in the interactive session: a built-in, so no custom command
 * or recipe name is taken from anyone (a custom command named `recipe` is listed as shadowed, as
 * for every built-in). Alone it lists the recipes; with a name, the recipe's prompt is the
 * person's message and its agent, model, mode and checks apply to that turn alone, as a custom
 * command's agent and model do. Parameters are words `name=value` (quoted as a shell quotes);
 * the launch's --trust-project is what lets a repository's recipe loosen the mode or agent.
 */
export async function recipeCommand(
  slot: SessionSlot,
  cwd: string,
  launch: SessionOptions,
  args: string,
): Promise<RecipeAnswer> {
  const words = splitArguments(args);
  const [ref, ...params] = words;
  if (ref === undefined) return { kind: "text", text: (await import("./commands/recipe.js")).recipesHere(cwd) };
  let prepared: RecipeRun;
  try {
    prepared = await prepareRecipeRun({
      ref,
      params,
      words: "",
      cwd,
      flags: launch.trustProject ? { trustProject: true } : {},
    });
  } catch (error) {
    if (error instanceof BosunError) return { kind: "text", text: `/recipe: ${error.message}` };
    throw error;
  }
  return {
    kind: "turn",
    text: prepared.text,
    ...(prepared.warning ? { notice: prepared.warning } : {}),
    run: (io) => recipeTurn(slot, prepared, io),
  };
}

/** The recipe's turn in a session reopened with its settings, then back to the session's own. */
async function recipeTurn(slot: SessionSlot, prepared: RecipeRun, io: TurnIo): Promise<TurnOutcome> {
  const blocked = slot.blockedNow;
  if (blocked) return { status: "failed", steps: 0, denied: 0, message: blocked };
  const { entry } = prepared.found;
  // Always a turn-only choice (even with no agent or model): the slot keeps none of it after.
  const command = prepared.options.command ?? { name: entry.name, file: entry.file, kind: "recipe" as const };
  const reopened = await slot.reopen(
    slot.here({
      ...prepared.options,
      command,
      ...(prepared.modeChoice ? { modeChoice: prepared.modeChoice } : {}),
    }),
  );
  if (!reopened.ok)
    return { status: "failed", steps: 0, denied: 0, message: `/recipe ${entry.name}: ${reopened.line}` };
  try {
    const live = await slot.open();
    live.record(prepared.decision);
    const first = await live.turn({ text: prepared.text }, io);
    return await untilResponse(first, prepared, {
      turn: (text) => live.turn({ text }, io),
      record: (decision) => live.record(decision),
      emit: io.emit,
    });
  } finally {
    await slot.reopen(slot.here());
  }
}
