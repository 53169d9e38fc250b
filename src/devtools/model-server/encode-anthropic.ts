import { argumentPieces, type Encoder, type Finish, type PlannedReply, sse, textPieces } from "./plan.js";

/** Anthropic Messages (`POST /v1/messages`), as api.anthropic.com sends it. */

const STOP_REASON: Record<Finish, string> = { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use" };

/**
 * Anthropic sends tool input as an object. Arguments that are not a JSON object (broken JSON,
 * scripted on purpose) cannot be expressed that way in a non-streaming reply: the raw string
 * is sent as `input`, which the SDK then rejects as it would a malformed call.
 */
function inputObject(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** A search the provider ran: the server tool's call, then its results, as two content blocks. */
function searchBlocks(
  search: PlannedReply["providerSearches"][number],
): [Record<string, unknown>, Record<string, unknown>] {
  return [
    { type: "server_tool_use", id: search.id, name: "web_search", input: { query: search.query } },
    {
      type: "web_search_tool_result",
      tool_use_id: search.id,
      content: search.results.map((r) => ({
        type: "web_search_result",
        url: r.url,
        title: r.title,
        encrypted_content: "scripted",
        page_age: null,
      })),
    },
  ];
}

/** A thinking block as a whole: signed thinking, or redacted data. */
function thinkingBlock(step: PlannedReply["thinking"][number]): Record<string, unknown> {
  if (step.redacted) return { type: "redacted_thinking", data: step.redacted };
  return { type: "thinking", thinking: step.text, signature: step.signature };
}

function json(plan: PlannedReply): unknown {
  const content: unknown[] = plan.thinking.map(thinkingBlock);
  content.push(...plan.providerSearches.flatMap(searchBlocks));
  if (plan.text !== "") content.push({ type: "text", text: plan.text });
  for (const call of plan.toolCalls) {
    content.push({ type: "tool_use", id: call.id, name: call.name, input: inputObject(call.arguments) });
  }
  return {
    id: plan.id,
    type: "message",
    role: "assistant",
    model: plan.model,
    content,
    stop_reason: STOP_REASON[plan.finish],
    stop_sequence: null,
    usage: {
      input_tokens: plan.usage.input - plan.usage.cacheRead - plan.usage.cacheWrite,
      cache_creation_input_tokens: plan.usage.cacheWrite,
      cache_read_input_tokens: plan.usage.cacheRead,
      output_tokens: plan.usage.output,
    },
  };
}

function events(plan: PlannedReply): string[] {
  const frames: string[] = [];
  const event = (data: { type: string; [key: string]: unknown }) => frames.push(sse(data, data.type));
  event({
    type: "message_start",
    message: {
      id: plan.id,
      type: "message",
      role: "assistant",
      model: plan.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: plan.usage.input - plan.usage.cacheRead - plan.usage.cacheWrite,
        cache_creation_input_tokens: plan.usage.cacheWrite,
        cache_read_input_tokens: plan.usage.cacheRead,
        output_tokens: 1,
      },
    },
  });
  event({ type: "ping" });
  let index = 0;
  for (const step of plan.thinking) {
    if (step.redacted) {
      event({ type: "content_block_start", index, content_block: thinkingBlock(step) });
    } else {
      event({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "" } });
      for (const piece of textPieces(step.text)) {
        event({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } });
      }
      event({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: step.signature } });
    }
    event({ type: "content_block_stop", index });
    index++;
  }
  for (const search of plan.providerSearches) {
    const [call, result] = searchBlocks(search);
    event({ type: "content_block_start", index, content_block: { ...call, input: {} } });
    event({
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
    });
    event({ type: "content_block_stop", index });
    index++;
    event({ type: "content_block_start", index, content_block: result });
    event({ type: "content_block_stop", index });
    index++;
  }
  if (plan.text !== "") {
    event({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of textPieces(plan.text)) {
      event({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    }
    event({ type: "content_block_stop", index });
    index++;
  }
  for (const call of plan.toolCalls) {
    event({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    for (const piece of ["", ...argumentPieces(call.arguments)]) {
      event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    event({ type: "content_block_stop", index });
    index++;
  }
  event({
    type: "message_delta",
    delta: { stop_reason: STOP_REASON[plan.finish], stop_sequence: null },
    usage: { output_tokens: plan.usage.output },
  });
  event({ type: "message_stop" });
  return frames;
}

/** Anthropic's error types by status. */
const ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request." },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
  404: { type: "not_found_error", message: "The requested resource could not be found." },
  413: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
  429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit." },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

export function anthropicErrorBody(status: number, message?: string): unknown {
  const known = ERRORS[status] ?? (status >= 500 ? ERRORS[500] : ERRORS[400]);
  return { type: "error", error: { type: known?.type, message: message ?? known?.message } };
}

export const anthropic: Encoder = { json, events, errorBody: anthropicErrorBody };
