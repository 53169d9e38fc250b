import { isPlainObject } from "../../util/object.js";
/**
 * A protocol-neutral view of a model request, the thing script rules match against.
 * Tool calls and tool results are rendered as text so a rule can match them like any message:
 * `tool_call <name> <arguments>` and `tool_result <id>: <content>`.
 */

export type Protocol = "openai-chat" | "anthropic" | "openai-responses";

export interface NormalizedMessage {
  role: "user" | "assistant" | "tool";
  text: string;
}

export interface NormalizedRequest {
  protocol: Protocol;
  model: string;
  /** All system and developer messages (and Responses `instructions`), joined by blank lines. */
  system: string;
  messages: NormalizedMessage[];
  /** Names of the advertised tools. */
  tools: string[];
  stream: boolean;
  maxTokens: number | undefined;
}

/** Output items the server produced on the Responses API, by id: the SDK refers back to them. */
export type ItemMemory = Map<string, NormalizedMessage>;

type Json = Record<string, unknown>;

function str(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value);
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/** Text of a content value: a string or an array of parts of any of the three protocols. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return str(content);
  const pieces: string[] = [];
  for (const part of content) {
    if (typeof part === "string") pieces.push(part);
    else if (isPlainObject(part)) {
      if (typeof part.text === "string") pieces.push(part.text);
      else if (typeof part.refusal === "string") pieces.push(part.refusal);
      else pieces.push(`[${str(part.type) || "part"}]`);
    }
  }
  return pieces.join("\n");
}

function toolCallText(name: unknown, args: unknown): string {
  return `tool_call ${str(name)} ${typeof args === "string" ? args : JSON.stringify(args ?? {})}`;
}

function toolResultText(id: unknown, content: unknown): string {
  return `tool_result ${str(id)}: ${contentText(content)}`;
}

/** Appends, merging consecutive assistant pieces into one message (as chat and Anthropic have them). */
function push(messages: NormalizedMessage[], message: NormalizedMessage): void {
  const last = messages[messages.length - 1];
  if (message.role === "assistant" && last?.role === "assistant") {
    last.text = last.text ? `${last.text}\n${message.text}` : message.text;
    return;
  }
  messages.push(message);
}

function joinSystem(parts: string[]): string {
  return parts.filter((part) => part.length > 0).join("\n\n");
}

/** OpenAI Chat Completions: `messages` with system/developer/user/assistant/tool roles. */
export function normalizeChat(body: Json): NormalizedRequest {
  const system: string[] = [];
  const messages: NormalizedMessage[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isPlainObject(message)) continue;
    const role = message.role;
    if (role === "system" || role === "developer") system.push(contentText(message.content));
    else if (role === "tool")
      messages.push({ role: "tool", text: toolResultText(message.tool_call_id, message.content) });
    else if (role === "assistant") {
      const pieces: string[] = [];
      const text = contentText(message.content);
      if (text) pieces.push(text);
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
        if (isPlainObject(call) && isPlainObject(call.function))
          pieces.push(toolCallText(call.function.name, call.function.arguments));
      }
      push(messages, { role: "assistant", text: pieces.join("\n") });
    } else messages.push({ role: "user", text: contentText(message.content) });
  }
  const tools: string[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (isPlainObject(tool) && isPlainObject(tool.function) && typeof tool.function.name === "string")
      tools.push(tool.function.name);
  }
  return {
    protocol: "openai-chat",
    model: str(body.model),
    system: joinSystem(system),
    messages,
    tools,
    stream: body.stream === true,
    maxTokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
  };
}

/** Anthropic Messages: top-level `system`, user/assistant messages with content blocks. */
export function normalizeAnthropic(body: Json): NormalizedRequest {
  const messages: NormalizedMessage[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isPlainObject(message)) continue;
    const role = message.role === "assistant" ? "assistant" : "user";
    if (!Array.isArray(message.content)) {
      push(messages, { role, text: contentText(message.content) });
      continue;
    }
    // Tool results become messages of their own; the blocks around them stay one message.
    let pending: string[] = [];
    const flush = () => {
      if (pending.length > 0) push(messages, { role, text: pending.join("\n") });
      pending = [];
    };
    for (const block of message.content) {
      if (!isPlainObject(block)) continue;
      if (block.type === "tool_result") {
        flush();
        messages.push({ role: "tool", text: toolResultText(block.tool_use_id, block.content) });
      } else if (block.type === "tool_use" || block.type === "server_tool_use") {
        pending.push(toolCallText(block.name, block.input));
      } else if (typeof block.text === "string") pending.push(block.text);
      else if (block.type !== "thinking" && block.type !== "redacted_thinking") pending.push(`[${str(block.type)}]`);
    }
    flush();
  }
  const tools: string[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (isPlainObject(tool) && typeof tool.name === "string") tools.push(tool.name);
  }
  return {
    protocol: "anthropic",
    model: str(body.model),
    system: contentText(body.system),
    messages,
    tools,
    stream: body.stream === true,
    maxTokens: num(body.max_tokens),
  };
}

/** OpenAI Responses: `instructions` plus `input` (a string or a list of items). */
export function normalizeResponses(body: Json, memory: ItemMemory): NormalizedRequest {
  const system: string[] = [];
  if (typeof body.instructions === "string") system.push(body.instructions);
  const messages: NormalizedMessage[] = [];
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
  for (const item of Array.isArray(input) ? input : []) {
    if (!isPlainObject(item)) continue;
    if (item.type === "function_call" || item.type === "custom_tool_call") {
      push(messages, { role: "assistant", text: toolCallText(item.name, item.arguments ?? item.input) });
    } else if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      messages.push({ role: "tool", text: toolResultText(item.call_id, item.output) });
    } else if (item.type === "item_reference") {
      const remembered = memory.get(str(item.id));
      push(messages, remembered ? { ...remembered } : { role: "assistant", text: `[item_reference ${str(item.id)}]` });
    } else if (item.type === "reasoning") {
      // Reasoning is not a message.
    } else if (item.role === "system" || item.role === "developer") system.push(contentText(item.content));
    else if (item.role === "assistant") push(messages, { role: "assistant", text: contentText(item.content) });
    else if (item.role === "user") messages.push({ role: "user", text: contentText(item.content) });
    else push(messages, { role: "assistant", text: `[${str(item.type)}]` });
  }
  const tools: string[] = [];
  const addTools = (list: unknown) => {
    for (const tool of Array.isArray(list) ? list : []) {
      if (!isPlainObject(tool)) continue;
      if (tool.type === "namespace") addTools(tool.tools);
      else if (typeof tool.name === "string") tools.push(tool.name);
      else if (typeof tool.type === "string") tools.push(tool.type);
    }
  };
  addTools(body.tools);
  return {
    protocol: "openai-responses",
    model: str(body.model),
    system: joinSystem(system),
    messages,
    tools,
    stream: body.stream === true,
    maxTokens: num(body.max_output_tokens),
  };
}
