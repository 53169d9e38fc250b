import { createHash } from "node:crypto";
import type { LoadedConfig } from "../../config/load.js";
import type { Answer, Reason } from "../../contracts/decisions.js";
import { isPlainObject } from "../../util/object.js";
import { budgetLoosening, withoutBudgetLoosening } from "./project-budgets.js";
import { referenceLoosening, withoutReferences } from "./project-references.js";

/**
 * What a repository's own `bosun.json` would loosen: allow rules, a mode that asks less than
 * approve, a judge model, a budget raised over its default (project-budgets.ts), the sandbox turned off, a provider's endpoint, headers or key (a
 * repository that points `anthropic` at its own server would be sent the user's key) or its npm
 * package (provider code bosun would import and run), the search
 * backend (web.search: where queries and the search key go). Whoever
 * wrote that file — anyone, for a cloned repository — would otherwise decide what runs on this
 * machine, or where the user's keys and conversation go (a project's model on a provider whose
 * endpoint the same file sets counts too: the conversation would go to that endpoint). So these
 * take effect only when the person trusts that
 * exact content (seat `project.trust`); until then the run loads the config without them. Asks
 * and denies in the file always hold, and a stricter mode (chat) always applies. Hooks and MCP
 * servers are judged one by one (project-commands.ts).
 */
export interface Loosening {
  /** `mode auto`, `allow shell:npm test *`, `provider anthropic baseURL` — what the person is shown. */
  items: string[];
  /** The project files that hold them. */
  files: string[];
  /** Changes whenever the items change: a trust saved for other content does not carry over. */
  fingerprint: string;
}

const LOOSE_MODES = new Set(["auto", "smart"]);
/**
 * Provider settings that decide where requests, and the user's keys, go. Azure's resourceName and
 * Vertex's location are spliced into the host name (`https://<resourceName>.openai.azure.com`,
 * `https://<location>-aiplatform.googleapis.com`), so `evil.example/x#` sends the key there;
 * Bedrock's region and Vertex's project choose the account that is billed.
 */
const PROVIDER_KEYS = [
  "type",
  "api",
  "baseURL",
  "apiKey",
  "headers",
  "npm",
  "resourceName",
  "region",
  "project",
  "location",
];

/**
 * A model's settings a repository may not choose for the person: `reasoning` spends their money on
 * thinking tokens (budget_tokens has no ceiling), and `tools: "text"` turns the model's prose into
 * calls (calls/text/shim.ts) — what it writes in an answer, quoted or not, would be run.
 */
function modelLoosening(model: Record<string, unknown>): string[] {
  const items: string[] = [];
  if (model.reasoning !== undefined) items.push("reasoning");
  if (model.tools === "text") items.push("tools text");
  return items;
}

function withoutModelLoosening(model: Record<string, unknown>): Record<string, unknown> {
  const { reasoning: _, ...rest } = model;
  if (rest.tools === "text") delete rest.tools;
  return rest;
}

/** The providers whose endpoint, key or headers this file sets. */
function redirectedProviders(data: Record<string, unknown>): string[] {
  if (!isPlainObject(data.provider)) return [];
  return Object.entries(data.provider)
    .filter(([, provider]) => isPlainObject(provider) && PROVIDER_KEYS.some((key) => provider[key] !== undefined))
    .map(([name]) => name);
}

/** Whether a "provider/model" value names one of these providers. */
function onProvider(value: unknown, providers: readonly string[]): value is string {
  return typeof value === "string" && providers.some((name) => value.startsWith(`${name}/`));
}

/** The loosening settings of one project file's content (any agent's), in a stable order. */
function looseningOf(data: unknown): string[] {
  if (!isPlainObject(data)) return [];
  const items: string[] = [];
  const redirected = redirectedProviders(data);
  if (typeof data.mode === "string" && LOOSE_MODES.has(data.mode)) items.push(`mode ${data.mode}`);
  if (onProvider(data.model, redirected)) items.push(`model ${data.model}`);
  if (typeof data.judge_model === "string") items.push(`judge_model ${data.judge_model}`);
  if (isPlainObject(data.compaction) && onProvider(data.compaction.model, redirected)) {
    items.push(`compaction.model ${data.compaction.model}`);
  }
  if (onProvider(data.small_model, redirected)) items.push(`small_model ${data.small_model}`);
  if (isPlainObject(data.shell) && data.shell.sandbox === "off") items.push("shell.sandbox off");
  // Where the search queries, and the search key, go.
  if (isPlainObject(data.web) && isPlainObject(data.web.search)) {
    const search = data.web.search;
    for (const key of ["provider", "url", "api_key"]) if (search[key] !== undefined) items.push(`web.search ${key}`);
  }
  if (isPlainObject(data.provider)) {
    for (const [name, provider] of Object.entries(data.provider)) {
      if (!isPlainObject(provider)) continue;
      for (const key of PROVIDER_KEYS) if (provider[key] !== undefined) items.push(`provider ${name} ${key}`);
      if (!isPlainObject(provider.models)) continue;
      for (const [id, model] of Object.entries(provider.models)) {
        if (isPlainObject(model))
          items.push(...modelLoosening(model).map((what) => `provider ${name} model ${id} ${what}`));
      }
    }
  }
  items.push(...allowsOf(data.permission, ""));
  items.push(...budgetLoosening(data));
  if (isPlainObject(data.agent)) {
    for (const [name, agent] of Object.entries(data.agent)) {
      if (!isPlainObject(agent)) continue;
      if (typeof agent.mode === "string" && LOOSE_MODES.has(agent.mode)) items.push(`agent ${name} mode ${agent.mode}`);
      if (onProvider(agent.model, redirected)) items.push(`agent ${name} model ${agent.model}`);
      // Over your own config's read-only agent of this name, it would let that agent edit.
      if (agent.read_only === false) items.push(`agent ${name} read_only false`);
      if (agent.reasoning !== undefined) items.push(`agent ${name} reasoning`);
      items.push(...allowsOf(agent.permission, `agent ${name}: `));
    }
  }
  return items;
}

function allowsOf(permission: unknown, prefix: string): string[] {
  if (!isPlainObject(permission)) return [];
  const items: string[] = [];
  for (const [action, entry] of Object.entries(permission)) {
    if (entry === "allow") items.push(`${prefix}allow ${action}:*`);
    else if (isPlainObject(entry)) {
      for (const [pattern, effect] of Object.entries(entry)) {
        if (effect === "allow") items.push(`${prefix}allow ${action}:${pattern}`);
      }
    }
  }
  return items;
}

/** The loosening settings of the project layer; undefined when there are none. */
export function projectLoosening(config: LoadedConfig): Loosening | undefined {
  const items: string[] = [];
  const files: string[] = [];
  // An agent file that loosens is trusted with its prompt and every other setting: a changed
  // file (its prompt too) is asked about again.
  const agentFiles: unknown[] = [];
  for (const doc of config.documents) {
    if (doc.layer !== "project") continue;
    // MCP servers reading your environment or files: seen in the file as written (project-references.ts).
    const found = [...looseningOf(doc.data), ...referenceLoosening(doc.written)];
    if (found.length === 0) continue;
    items.push(...found);
    files.push(doc.file ?? doc.source);
    if (doc.agentFile) agentFiles.push([doc.file, doc.data]);
  }
  if (items.length === 0) return undefined;
  const hash = createHash("sha256").update(JSON.stringify(items));
  if (agentFiles.length > 0) hash.update(JSON.stringify(agentFiles));
  const fingerprint = hash.digest("hex").slice(0, 16);
  return { items, files, fingerprint };
}

/**
 * A project file's content without what it would loosen (for `loadConfig`'s filterProject): the
 * run of a repository nobody trusted loads its config as if those settings were not written.
 * Its permission rules stay: untrusted, each may only tighten (the rule layers mark them, and
 * the evaluator leaves out any answer looser than the layers below it), which covers an `ask`
 * over the user's own deny as well as every `allow`.
 */
export function withoutLoosening(data: unknown): unknown {
  if (!isPlainObject(data)) return data;
  const out: Record<string, unknown> = withoutBudgetLoosening(data);
  const redirected = redirectedProviders(data);
  if (typeof out.mode === "string" && LOOSE_MODES.has(out.mode)) delete out.mode;
  if (onProvider(out.model, redirected)) delete out.model;
  delete out.judge_model;
  if (onProvider(out.small_model, redirected)) delete out.small_model;
  if (isPlainObject(out.compaction) && onProvider(out.compaction.model, redirected)) {
    const { model: _, ...compaction } = out.compaction;
    out.compaction = compaction;
  }
  if (isPlainObject(out.shell) && out.shell.sandbox === "off") {
    const { sandbox: _, ...shell } = out.shell;
    out.shell = shell;
  }
  // Every key of web.search decides where your queries, or your key, go: the whole backend waits for trust.
  if (isPlainObject(out.web) && out.web.search !== undefined) {
    const { search: _, ...web } = out.web;
    out.web = web;
  }
  if (isPlainObject(out.provider)) {
    out.provider = Object.fromEntries(
      Object.entries(out.provider).map(([name, provider]) => [
        name,
        isPlainObject(provider) ? withoutProviderLoosening(provider) : provider,
      ]),
    );
  }
  if (isPlainObject(out.agent)) {
    out.agent = Object.fromEntries(
      Object.entries(out.agent).map(([name, agent]) => {
        if (!isPlainObject(agent)) return [name, agent];
        const copy: Record<string, unknown> = { ...agent };
        if (typeof copy.mode === "string" && LOOSE_MODES.has(copy.mode)) delete copy.mode;
        if (onProvider(copy.model, redirected)) delete copy.model;
        if (copy.read_only === false) delete copy.read_only;
        delete copy.reasoning;
        return [name, copy];
      }),
    );
  }
  return withoutReferences(out);
}

function withoutProviderLoosening(provider: Record<string, unknown>): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(provider).filter(([key]) => !PROVIDER_KEYS.includes(key)));
  if (isPlainObject(out.models)) {
    out.models = Object.fromEntries(
      Object.entries(out.models).map(([id, model]) => [
        id,
        isPlainObject(model) ? withoutModelLoosening(model) : model,
      ]),
    );
  }
  return out;
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
          "nobody trusted this repository's settings: the run leaves them out, as if not written (--trust-project applies them)",
        decisive: true,
      },
      what,
    ],
  };
}
