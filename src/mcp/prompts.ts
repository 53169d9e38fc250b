/**
 * An MCP server's prompts as slash commands: `/mcp:<server>:<prompt> args`. The person's
 * arguments are matched to the prompt's declared ones (`name=value`, or in order), a missing
 * required one is said before anything is asked of the server, and the server's messages become
 * the text the model is sent — as the person's message, like a custom command's expansion.
 */

/** What bosun needs of a connected client for prompts. */
export interface McpPromptClient {
  listPrompts(params?: { cursor?: string }, options?: { timeout?: number }): Promise<unknown>;
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<unknown>;
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

export interface McpPrompt {
  server: string;
  name: string;
  /** The slash command: `mcp:<server>:<prompt>` (characters a command name cannot hold become `_`). */
  command: string;
  description?: string;
  arguments: McpPromptArgument[];
}

/** Most pages of prompts read from one server: a server that pages forever is cut off. */
const MAX_PAGES = 50;
/** Most characters of one expanded prompt sent on. */
const MAX_PROMPT_CHARS = 100_000;

export function promptCommandName(server: string, prompt: string): string {
  return `mcp:${server}:${prompt.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 64);
}

/** Every page of a server's prompts. */
export async function listPrompts(server: string, client: McpPromptClient, timeout: number): Promise<McpPrompt[]> {
  const prompts: McpPrompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = (await client.listPrompts(cursor ? { cursor } : undefined, { timeout })) as {
      prompts?: Array<{ name: string; description?: string; arguments?: McpPromptArgument[] }>;
      nextCursor?: string;
    };
    for (const p of listed.prompts ?? []) {
      prompts.push({
        server,
        name: p.name,
        command: promptCommandName(server, p.name),
        ...(p.description ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({ ...a })),
      });
    }
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  return prompts;
}

/**
 * The person's words (split as a shell splits them, by the caller: input/custom-commands.ts) as
 * the prompt's arguments, or what is wrong with them. The last open argument takes the rest.
 */
export function promptArguments(
  prompt: McpPrompt,
  words: readonly string[],
): { ok: true; values: Record<string, string> } | { ok: false; problem: string } {
  const values: Record<string, string> = {};
  const declared = new Set(prompt.arguments.map((a) => a.name));
  const positional: string[] = [];
  for (const word of words) {
    const named = /^([A-Za-z0-9_-]+)=([\s\S]*)$/.exec(word);
    if (named && declared.has(named[1] as string)) values[named[1] as string] = named[2] as string;
    else positional.push(word);
  }
  const open = prompt.arguments.filter((a) => values[a.name] === undefined);
  open.forEach((argument, i) => {
    const word = i === open.length - 1 ? positional.slice(i).join(" ") : positional[i];
    if (word !== undefined && word !== "") values[argument.name] = word;
  });
  if (positional.length > open.length && open.length === 0)
    return { ok: false, problem: `/${prompt.command} takes no more arguments (${describeArguments(prompt)})` };
  const missing = prompt.arguments.filter((a) => a.required && values[a.name] === undefined).map((a) => a.name);
  if (missing.length > 0)
    return { ok: false, problem: `/${prompt.command} needs ${missing.join(", ")} (${describeArguments(prompt)})` };
  return { ok: true, values };
}

/** `topic (required), style`: what /help and a usage problem show. */
export function describeArguments(prompt: McpPrompt): string {
  if (prompt.arguments.length === 0) return "no arguments";
  return prompt.arguments.map((a) => `${a.name}${a.required ? " (required)" : ""}`).join(", ");
}

type Content = { type: string; text?: string; mimeType?: string; uri?: string; resource?: Content; name?: string };

function contentText(content: Content): string {
  if (content.type === "text") return content.text ?? "";
  if (content.type === "resource" && content.resource) {
    const r = content.resource;
    return typeof r.text === "string"
      ? `[resource ${r.uri ?? ""}]\n${r.text}`
      : `[resource ${r.uri ?? ""}: ${r.mimeType ?? "binary"}, not shown]`;
  }
  if (content.type === "resource_link")
    return `[resource link ${content.uri ?? ""}${content.name ? ` (${content.name})` : ""}]`;
  return `[${content.type}${content.mimeType ? ` ${content.mimeType}` : ""}: not shown]`;
}

/**
 * The prompt's messages as the text the model is sent: one message alone as it is, several with
 * who says each (the server may script an exchange), bounded.
 */
export function promptText(result: unknown): string {
  const messages = ((result as { messages?: unknown[] }).messages ?? []) as Array<{ role?: string; content?: Content }>;
  const parts = messages.map((m) => ({ role: m.role ?? "user", text: m.content ? contentText(m.content) : "" }));
  const text = parts.length === 1 ? (parts[0]?.text ?? "") : parts.map((p) => `${p.role}:\n${p.text}`).join("\n\n");
  return text.length > MAX_PROMPT_CHARS
    ? `${text.slice(0, MAX_PROMPT_CHARS)}\n[cut at ${MAX_PROMPT_CHARS} characters]`
    : text;
}

export type PromptOutcome = { ok: true; text: string } | { ok: false; problem: string };

/**
 * One prompt's messages as the text to send, for the person's words: asked of the server's
 * client as it stands now (`client` undefined: it is not connected — failed, or restarted and
 * failed), its arguments checked before anything is asked.
 */
export async function fetchPrompt(
  at: { client: McpPromptClient; timeout: number } | undefined,
  prompt: McpPrompt,
  words: readonly string[],
  signal: AbortSignal,
): Promise<PromptOutcome> {
  if (!at) return { ok: false, problem: `MCP server ${prompt.server} is not connected` };
  const args = promptArguments(prompt, words);
  if (!args.ok) return args;
  try {
    const result = await at.client.getPrompt(
      { name: prompt.name, arguments: args.values },
      { signal, timeout: at.timeout },
    );
    return { ok: true, text: promptText(result) };
  } catch (error) {
    const why = (error as Error).message;
    return { ok: false, problem: `MCP server ${prompt.server} failed the prompt ${prompt.name}: ${why}` };
  }
}
