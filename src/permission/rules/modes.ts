import type { LoadedConfig } from "../../config/load.js";
import type { Answer } from "../../contracts/decisions.js";
import { DEFAULT_MODE, MODE_SUMMARIES, type ModeName } from "../../contracts/modes.js";
import { UsageError } from "../../errors.js";
import type { Face } from "../../util/face.js";
import type { Rule } from "./rules.js";

/**
 * Permission modes. A mode is a preset of rules (layer `mode`, right after the built-in
 * defaults, so every config layer can still change them) and, for auto and chat, what happens to
 * the rules' answer afterwards. Read-only agents and the administrator's policy hold in every mode.
 */
export interface ModeSpec {
  name: ModeName;
  /** One line for the README and `bosun seats`; generated tables quote it. */
  summary: string;
  /** Rules of the mode layer. */
  preset: Rule[];
  /** What an `ask` left by the rules becomes: auto allows it; chat denies everything. */
  after?: "ask-allows" | "deny-all";
  /** Whether an unclassified shell command that asks may be cleared by the judge (seat call.judge). */
  judge: boolean;
  /** Whether the model is offered tools at all. */
  tools: boolean;
}

const source = (mode: ModeName, key: string) => ({
  layer: "mode" as const,
  file: "built-in",
  key: `mode ${mode}: ${key}`,
});

/** Reads, and commands the shell analysis proves read-only, run without asking. */
function readOnlyPreset(mode: ModeName): Rule[] {
  return [
    { action: "shell", pattern: "*", effect: "allow", when: "read-only", source: source(mode, "read-only commands") },
    { action: "mcp", pattern: "*", effect: "allow", when: "read-only", source: source(mode, "read-only MCP tools") },
  ];
}

export const MODES: Readonly<Record<ModeName, ModeSpec>> = {
  approve: {
    name: "approve",
    summary: MODE_SUMMARIES.approve,
    preset: readOnlyPreset("approve"),
    judge: false,
    tools: true,
  },
  smart: {
    name: "smart",
    summary: MODE_SUMMARIES.smart,
    preset: readOnlyPreset("smart"),
    judge: true,
    tools: true,
  },
  auto: {
    name: "auto",
    summary: MODE_SUMMARIES.auto,
    preset: readOnlyPreset("auto"),
    after: "ask-allows",
    judge: false,
    tools: true,
  },
  chat: {
    name: "chat",
    summary: MODE_SUMMARIES.chat,
    preset: [],
    after: "deny-all",
    judge: false,
    tools: false,
  },
};

/**
 * Seat `permission.mode`: `--mode` is the person's choice; else the agent's configured mode;
 * else config `mode`; else approve (code). (A repository nobody trusted cannot loosen it: its
 * auto or smart is left out of the config, seat project.trust.) An unknown name is a usage
 * error listing the modes.
 */
export function decideMode(
  flag: string | undefined,
  agent: { name: string; mode?: ModeName },
  config: LoadedConfig,
  face: Face = "cli",
  /** Where the person chose `flag` when it was not the --mode flag (an editor's session/set_mode). */
  chosen?: ModeChoice,
): Answer<ModeName> {
  if (flag !== undefined) {
    checkModeName(flag, face === "tui" ? "/mode" : "--mode");
    return {
      holder: chosen?.holder ?? "person",
      answer: flag,
      reasons: [
        { rule: chosen?.rule ?? "--mode flag", detail: flag, source: chosen?.source ?? "--mode", decisive: true },
      ],
    };
  }
  const fromConfig = (key: string, mode: ModeName, rule: string): Answer<ModeName> => {
    const origin = config.origins.get(key);
    return {
      holder: "config",
      answer: mode,
      reasons: [
        {
          rule,
          detail: mode,
          decisive: true,
          ...(origin ? { source: origin.file ?? origin.source, key } : {}),
          ...(origin?.line ? { line: origin.line } : {}),
        },
      ],
    };
  };
  if (agent.mode) return fromConfig(`agent.${agent.name}.mode`, agent.mode, `agent ${agent.name}'s mode`);
  if (config.config.mode) return fromConfig("mode", config.config.mode, "config mode");
  return {
    holder: "code",
    answer: DEFAULT_MODE,
    reasons: [{ rule: "default mode", detail: `${DEFAULT_MODE}: ${MODES[DEFAULT_MODE].summary}`, decisive: true }],
  };
}

/** Where the person chose a mode, for the record: the rule (`session/set_mode`) and the surface. */
export interface ModeChoice {
  rule: string;
  source: string;
  /** A file's choice rather than the person's (a recipe's mode): holder config. */
  holder?: "config";
}

/** A mode named by the person (a flag, /mode): one of the modes, or a usage error naming them. */
export function checkModeName(value: string, named = "--mode"): asserts value is ModeName {
  if (!isModeName(value))
    throw new UsageError(`${named} must be one of ${Object.keys(MODES).join(", ")}, not "${value}"`);
}

export function isModeName(value: string): value is ModeName {
  return Object.hasOwn(MODES, value);
}
