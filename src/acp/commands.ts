import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { Decision } from "../contracts/decisions.js";
import type { CustomCommand, CustomCommandSet } from "../input/custom-commands.js";
import { BUILTIN_COMMANDS, type BuiltinName, describeCustom, isBuiltin } from "../input/slash.js";

/**
 * The built-ins an editor's thread is offered. The others are the editor's own controls
 * (modes: its mode picker; sessions: its thread list) or the terminal's (/undo, /why, /mcp…).
 */
const OFFERED: ReadonlySet<BuiltinName> = new Set<BuiltinName>(["goal", "init"]);

const HINTS: Partial<Record<BuiltinName, string>> = { goal: "a command that must exit 0, or off" };

/** What the editor lists as slash commands (available_commands_update): the offered built-ins, then the custom ones. */
export function offeredCommands(customs: CustomCommandSet): AvailableCommand[] {
  const builtins = BUILTIN_COMMANDS.filter((command) => OFFERED.has(command.name)).map(
    (command): AvailableCommand => ({
      name: command.name,
      description: command.description,
      ...(HINTS[command.name] ? { input: { hint: HINTS[command.name] as string } } : {}),
    }),
  );
  const custom = customs.commands
    .filter((command) => !isBuiltin(command.name))
    .map(
      (command): AvailableCommand => ({
        name: command.name,
        description: describeCustom(command),
        input: { hint: "arguments" },
      }),
    );
  return [...builtins, ...custom];
}

/** Why a typed built-in does nothing over ACP, and where it lives instead; undefined when it is offered. */
export function notOffered(name: BuiltinName): string | undefined {
  if (OFFERED.has(name)) return undefined;
  const where =
    name === "mode"
      ? "the editor's mode picker sets it"
      : name === "new" || name === "resume" || name === "sessions"
        ? "the editor's thread list holds the sessions"
        : `run \`bosun\` in a terminal in this folder for /${name}`;
  return `/${name} is not offered in the editor: ${where}`;
}

/**
 * A custom command that asks for its own agent or model is refused in the editor (seat
 * agent.select or model.select, by code): the editor's thread stays with the session it holds,
 * so nothing the command's front matter names runs in its place. Undefined when it asks for
 * nothing new.
 */
export function switchRefusal(
  command: CustomCommand,
  session: { agent: string; model: string },
): { decision: Decision; message: string } | undefined {
  const agent = command.agent !== undefined && command.agent !== session.agent ? command.agent : undefined;
  const model = command.model !== undefined && command.model !== session.model ? command.model : undefined;
  if (agent === undefined && model === undefined) return undefined;
  const what = agent !== undefined ? `agent ${agent}` : `model ${model}`;
  const message = `/${command.name} asks for ${what} for its turn; in the editor a command does not switch the session's agent or model — run it in a terminal session, or switch first`;
  return {
    message,
    decision: {
      seat: agent !== undefined ? "agent.select" : "model.select",
      holder: "code",
      answer: agent !== undefined ? session.agent : session.model,
      reasons: [
        {
          rule: `custom command /${command.name} ${agent !== undefined ? "agent" : "model"}`,
          detail: (agent ?? model) as string,
          source: command.file,
        },
        { rule: "a command does not switch the editor's session", detail: message, decisive: true },
      ],
      subject: { command: command.name },
    },
  };
}
