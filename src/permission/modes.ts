import type { LoadedConfig } from "../config/load.js";
import type { MODE_NAMES } from "../config/schema.js";
import { UsageError } from "../errors.js";
import type { Answer, Reason } from "../seats/types.js";
import { usableValue } from "./project-trust.js";
import type { Rule } from "./rules.js";

export type ModeName = (typeof MODE_NAMES)[number];

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
    summary:
      "reads, shell commands proven read-only and MCP tools annotated read-only run; edits, other commands, paths outside the workspace, the web and other MCP tools ask",
    preset: readOnlyPreset("approve"),
    judge: false,
    tools: true,
  },
  smart: {
    name: "smart",
    summary:
      "like approve, but a shell command in no table that would ask goes to an LLM judge first (seat call.judge): judged read-only, it runs; anything else, or a judge error, asks",
    preset: readOnlyPreset("smart"),
    judge: true,
    tools: true,
  },
  auto: {
    name: "auto",
    summary:
      "everything runs unless a rule denies it: every ask becomes allow (a call that cannot be analysed still asks; read-only agents and policy still deny)",
    preset: readOnlyPreset("auto"),
    after: "ask-allows",
    judge: false,
    tools: true,
  },
  chat: {
    name: "chat",
    summary: "no tool runs: the model is offered no tools, and any call it makes anyway is denied",
    preset: [],
    after: "deny-all",
    judge: false,
    tools: false,
  },
};

export const DEFAULT_MODE: ModeName = "approve";

/**
 * Seat `permission.mode`: `--mode` is the person's choice; else the agent's configured mode;
 * else config `mode`; else approve (code). A repository's own bosun.json that is not trusted
 * (seat project.trust) cannot loosen the mode: its auto or smart is passed over for what the
 * user's own config says, else approve. An unknown name is a usage error listing the modes.
 */
export function decideMode(
  flag: string | undefined,
  agent: { name: string; mode?: ModeName },
  config: LoadedConfig,
  options: { untrustedProject?: boolean } = {},
): Answer<ModeName> {
  if (flag !== undefined) {
    if (!isModeName(flag)) {
      throw new UsageError(`--mode must be one of ${Object.keys(MODES).join(", ")}, not "${flag}"`);
    }
    return {
      holder: "person",
      answer: flag,
      reasons: [{ rule: "--mode flag", detail: flag, source: "--mode", decisive: true }],
    };
  }
  const passedOver: Reason[] = [];
  const candidate = (key: string, mode: ModeName | undefined, rule: string): Answer<ModeName> | undefined => {
    if (mode === undefined) return undefined;
    const loose = MODES[mode].after === "ask-allows" || MODES[mode].judge;
    const usable = usableValue(config, key, mode, options.untrustedProject === true && loose);
    if (usable.withheld !== undefined) {
      passedOver.push({
        rule: `${rule} from the repository`,
        detail: `${String(usable.withheld)} not used: the repository's settings are not trusted (project.trust)`,
      });
    }
    if (usable.value === undefined) return undefined;
    return {
      holder: "config",
      answer: usable.value,
      reasons: [
        {
          rule,
          detail: usable.value,
          decisive: true,
          ...(usable.file ? { source: usable.file, key } : { source: usable.layer, key }),
          ...(usable.line ? { line: usable.line } : {}),
        },
        ...passedOver,
      ],
    };
  };
  const chosen =
    candidate(`agent.${agent.name}.mode`, agent.mode, `agent ${agent.name}'s mode`) ??
    candidate("mode", config.config.mode, "config mode");
  if (chosen) return chosen;
  return {
    holder: "code",
    answer: DEFAULT_MODE,
    reasons: [
      { rule: "default mode", detail: `${DEFAULT_MODE}: ${MODES[DEFAULT_MODE].summary}`, decisive: true },
      ...passedOver,
    ],
  };
}

export function isModeName(value: string): value is ModeName {
  return Object.hasOwn(MODES, value);
}
