import { createHash } from "node:crypto";
import type { LoadedConfig } from "../config/load.js";
import type { Answer, Reason } from "../seats/types.js";
import { isEffect } from "./rules.js";

/**
 * What a repository's own `bosun.json` would loosen: a mode that asks less than approve, allow
 * rules, a judge model. Whoever wrote that file — anyone, for a cloned repository — would
 * otherwise decide what runs on this machine without asking. So these take effect only when the
 * person trusts that exact content (seat `project.trust`); asks and denies in it always hold, and
 * a stricter mode (chat) always applies. Hooks and MCP servers are judged one by one
 * (project-commands.ts).
 */
export interface Loosening {
  /** `mode auto`, `allow shell:npm test *`, `judge_model x/y` — what the person is shown. */
  items: string[];
  /** The project files that hold them. */
  files: string[];
  /** Changes whenever the items change: a trust saved for other content does not carry over. */
  fingerprint: string;
}

const LOOSE_MODES = new Set(["auto", "smart"]);

/** The loosening settings in the project layer, for the agent that runs; undefined when there are none. */
export function projectLoosening(config: LoadedConfig, agent: string): Loosening | undefined {
  const items: string[] = [];
  const files = new Set<string>();
  for (const doc of config.documents) {
    if (doc.layer !== "project") continue;
    const before = items.length;
    const data = doc.data;
    if (data.mode && LOOSE_MODES.has(data.mode)) items.push(`mode ${data.mode}`);
    const agentSettings = data.agent?.[agent];
    if (agentSettings?.mode && LOOSE_MODES.has(agentSettings.mode))
      items.push(`agent ${agent} mode ${agentSettings.mode}`);
    if (data.judge_model) items.push(`judge_model ${data.judge_model}`);
    for (const [prefix, permission] of [
      ["", data.permission],
      [`agent ${agent}: `, agentSettings?.permission],
    ] as const) {
      for (const [action, entry] of Object.entries(permission ?? {})) {
        if (entry === "allow") items.push(`${prefix}allow ${action}:*`);
        else if (entry && typeof entry === "object") {
          for (const [pattern, effect] of Object.entries(entry)) {
            if (isEffect(effect) && effect === "allow") items.push(`${prefix}allow ${action}:${pattern}`);
          }
        }
      }
    }
    if (items.length > before) files.add(doc.file ?? doc.source);
  }
  if (items.length === 0) return undefined;
  const fingerprint = createHash("sha256").update(JSON.stringify(items)).digest("hex").slice(0, 16);
  return { items, files: [...files], fingerprint };
}

export type TrustAnswer = "trusted" | "untrusted";

/** Asks the person whether to trust a repository's loosening settings. */
export interface TrustPrompt {
  askTrust(loosening: Loosening, signal: AbortSignal): Promise<"once" | "always" | "no">;
}

/**
 * Seat `project.trust`: `--trust-project` is the person's yes for this run; a trust saved for
 * this exact content is their earlier yes; at a terminal they are asked; otherwise code answers
 * untrusted — the loosening settings do not apply (as if not written; the user's own config decides).
 */
export async function decideProjectTrust(input: {
  loosening: Loosening;
  flag: boolean;
  saved: boolean;
  prompt?: TrustPrompt;
  signal: AbortSignal;
}): Promise<Answer<TrustAnswer> & { save?: boolean }> {
  const what: Reason = {
    rule: "what the repository's config would loosen",
    detail: input.loosening.items.join("; "),
    source: input.loosening.files.join(", "),
  };
  if (input.flag) {
    return {
      holder: "person",
      answer: "trusted",
      reasons: [{ rule: "--trust-project", source: "--trust-project", decisive: true }, what],
    };
  }
  if (input.saved) {
    return {
      holder: "person",
      answer: "trusted",
      reasons: [
        {
          rule: "trusted before",
          detail: `the person trusted this content (${input.loosening.fingerprint})`,
          decisive: true,
        },
        what,
      ],
    };
  }
  if (input.prompt) {
    const reply = await input.prompt.askTrust(input.loosening, input.signal);
    const trusted = reply !== "no";
    return {
      holder: "person",
      answer: trusted ? "trusted" : "untrusted",
      reasons: [
        { rule: trusted ? `the person trusted it ${reply}` : "the person did not trust it", decisive: true },
        what,
      ],
      ...(reply === "always" ? { save: true } : {}),
    };
  }
  return {
    holder: "code",
    answer: "untrusted",
    reasons: [
      {
        rule: "not trusted",
        detail:
          "nobody trusted this repository's settings: its allow rules, looser mode and judge model are not used (--trust-project applies them)",
        decisive: true,
      },
      what,
    ],
  };
}

/**
 * The value of a config key as a run may use it: the merged value, or — when the repository is
 * not trusted and it was the project's own file that set the key — the value a lower layer (the
 * user's) gave it, if any. Only for keys a project could loosen with (mode, judge_model).
 */
export function usableValue<T>(
  config: LoadedConfig,
  key: string,
  value: T | undefined,
  untrustedProject: boolean,
):
  | { value: T; layer: string; file?: string; line?: number; withheld?: unknown }
  | { value: undefined; withheld?: unknown } {
  const origin = config.origins.get(key);
  if (value === undefined) return { value: undefined };
  if (origin === undefined) return { value, layer: "config" };
  if (!untrustedProject || origin.layer !== "project") {
    return {
      value,
      layer: origin.layer,
      ...(origin.file ? { file: origin.file } : {}),
      ...(origin.line ? { line: origin.line } : {}),
    };
  }
  const lower = (config.shadowed.get(key) ?? []).filter((s) => s.origin.layer !== "project").at(-1);
  if (!lower) return { value: undefined, withheld: value };
  return {
    value: lower.value as T,
    layer: lower.origin.layer,
    ...(lower.origin.file ? { file: lower.origin.file } : {}),
    ...(lower.origin.line ? { line: lower.origin.line } : {}),
    withheld: value,
  };
}
