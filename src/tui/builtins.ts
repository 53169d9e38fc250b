import type { CustomCommandSet } from "../input/custom-commands.js";
import { customsShadowedByBuiltin, helpText } from "../input/slash.js";
import { revertCommand } from "./revert-command.js";
import type { InteractiveRunner } from "./runner.js";
import type { DialogState } from "./use-dialogs.js";
import type { TranscriptState } from "./use-transcript.js";

/**
 * The built-in slash commands as the app runs them: what they answer goes into the transcript as
 * a notice; /resume, /model, /agent and /mode alone open a picker first. Made anew each render.
 */
export function builtins(deps: {
  runner: InteractiveRunner;
  commands: CustomCommandSet;
  transcript: TranscriptState;
  dialogs: DialogState;
  exit: () => void;
}): (name: string, args: string) => Promise<void> {
  const { runner, commands, dialogs } = deps;
  const { add, showPast } = deps.transcript;
  const customs = commands.commands;
  const sessionCommand = async (name: string, args: string) =>
    runner.command ? runner.command(name, args) : `/${name}: not available here`;

  const resume = async (args: string) => {
    // Without an id: the person picks from this directory's sessions.
    const sessions = args ? [] : (runner.sessions?.() ?? []);
    if (!args && sessions.length > 0) {
      const id = await dialogs.pickSession(sessions);
      const line = id ? await (runner.command?.("resume", id) ?? "") : "kept this session";
      // Another session: its past follows what is shown (drawn lines stay in the terminal).
      showPast();
      add({ kind: "notice", text: line });
      return;
    }
    const line = await sessionCommand("resume", args);
    showPast();
    add({ kind: "notice", text: line });
  };

  const choose = async (name: "model" | "agent" | "mode", args: string) => {
    // Alone: the person picks from what is configured; with an argument it switches at once.
    const choices = args ? [] : (runner.choices?.(name) ?? []);
    if (choices.length === 0) {
      add({ kind: "notice", text: await sessionCommand(name, args) });
      return;
    }
    const title = { model: "Switch the model", agent: "Switch the agent", mode: "Switch the permission mode" }[name];
    const value = await dialogs.choose(title, choices);
    const now = choices.find((c) => c.current)?.value;
    add({
      kind: "notice",
      text:
        value === undefined || value === now ? `kept ${name} ${now ?? ""}`.trim() : await sessionCommand(name, value),
    });
  };

  const revert = revertCommand(runner, dialogs, add);

  return async (name, args) => {
    switch (name) {
      case "undo":
      case "redo":
      case "rewind":
        return revert(name);
      case "exit":
        await runner.close();
        deps.exit();
        return;
      case "help":
        add({
          kind: "notice",
          text: helpText(customs, customsShadowedByBuiltin(customs), commands.shadowed, commands.skipped),
        });
        return;
      case "why":
        add({
          kind: "notice",
          text: await runner.why(args || undefined, { width: process.stdout.columns || 80, color: true }),
        });
        return;
      case "compact":
        add({ kind: "notice", text: await runner.compact() });
        return;
      case "resume":
        return resume(args);
      case "mcp":
        add({ kind: "notice", text: runner.mcp ? await runner.mcp(args) : "/mcp: not available here" });
        return;
      case "cost":
        add({ kind: "notice", text: runner.cost ? runner.cost() : "/cost: not available here" });
        return;
      case "model":
      case "agent":
      case "mode":
        return choose(name, args);
      default:
        add({ kind: "notice", text: await sessionCommand(name, args) });
    }
  };
}
