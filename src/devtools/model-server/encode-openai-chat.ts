import { argumentPieces, type Encoder, type PlannedReply, type PlannedUsage, sse, textPieces } from "./plan.js";

/** OpenAI Chat Completions (`POST /v1/chat/completions`), as api.openai.com sends it. */

function usage(usage: PlannedUsage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: {
      cached_tokens: usage.cacheRead,
      ...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
    },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function json(plan: PlannedReply): unknown {
  return {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: plan.text === "" && plan.toolCalls.length > 0 ? null : plan.text,
          refusal: null,
          ...(plan.toolCalls.length > 0
            ? {
                tool_calls: plan.toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: plan.finish,
      },
    ],
    usage: usage(plan.usage),
  };
}

function events(plan: PlannedReply, body: Record<string, unknown>): string[] {
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  const includeUsage = options?.include_usage === true;
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({
      id: plan.id,
      object: "chat.completion.chunk",
      created: plan.created,
      model: plan.model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const frames: string[] = [];
  frames.push(chunk({ role: "assistant", content: plan.text === "" ? null : "", refusal: null }));
  for (const piece of textPieces(plan.text)) frames.push(chunk({ content: piece }));
  plan.toolCalls.forEach((call, index) => {
    frames.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const piece of argumentPieces(call.arguments)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  frames.push(chunk({}, plan.finish));
  if (includeUsage) {
    frames.push(
      sse({
        id: plan.id,
        object: "chat.completion.chunk",
        created: plan.created,
        model: plan.model,
        system_fingerprint: null,
        choices: [],
        usage: usage(plan.usage),
      }),
    );
  }
  frames.push(sse("[DONE]"));
  return frames;
}

/** OpenAI's error types and codes by status. */
const ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided." },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Forbidden." },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist." },
  429: {
    type: "requests",
    code: "rate_limit_exceeded",
    message: "Rate limit reached for requests. Please try again in 1s.",
  },
  500: { type: "server_error", code: null, message: "The server had an error while processing your request." },
  503: { type: "server_error", code: null, message: "The engine is currently overloaded, please try again later." },
};

export function openAIErrorBody(status: number, message?: string): unknown {
  const known = ERRORS[status] ?? (status >= 500 ? ERRORS[500] : ERRORS[400]);
  return { error: { message: message ?? known?.message, type: known?.type, param: null, code: known?.code ?? null } };
}

export const openAIChat: Encoder = { json, events, errorBody: openAIErrorBody };
