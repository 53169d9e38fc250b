import { openAIErrorBody } from "./encode-openai-chat.js";
import { argumentPieces, type Encoder, type PlannedReply, sse, textPieces } from "./plan.js";

/**
 * OpenAI Responses (`POST /v1/responses`), as api.openai.com sends it. The finish reason is
 * implied: `length` becomes status "incomplete" with reason max_output_tokens; otherwise the
 * SDK reports tool-calls exactly when the output has function calls.
 */

function usage(plan: PlannedReply) {
  return {
    input_tokens: plan.usage.input,
    input_tokens_details: {
      cached_tokens: plan.usage.cacheRead,
      ...(plan.usage.cacheWrite > 0 ? { cache_write_tokens: plan.usage.cacheWrite } : {}),
    },
    output_tokens: plan.usage.output,
    output_tokens_details: { reasoning_tokens: plan.usage.reasoning },
    total_tokens: plan.usage.input + plan.usage.output,
  };
}

function itemStatus(plan: PlannedReply): string {
  return plan.finish === "length" ? "incomplete" : "completed";
}

function messageItem(plan: PlannedReply, status: string, text: string | undefined) {
  return {
    id: plan.messageId,
    type: "message",
    status,
    role: "assistant",
    content: text === undefined ? [] : [{ type: "output_text", annotations: [], logprobs: [], text }],
  };
}

function callItem(call: PlannedReply["toolCalls"][number], status: string, args: string) {
  return { id: call.itemId, type: "function_call", status, arguments: args, call_id: call.id, name: call.name };
}

function reasoningItem(step: PlannedReply["thinking"][number], done: boolean) {
  return {
    id: step.itemId,
    type: "reasoning",
    encrypted_content: step.encrypted,
    summary: done && step.text !== "" ? [{ type: "summary_text", text: step.text }] : [],
  };
}

function output(plan: PlannedReply): unknown[] {
  const items: unknown[] = plan.thinking.map((step) => reasoningItem(step, true));
  if (plan.text !== "") items.push(messageItem(plan, itemStatus(plan), plan.text));
  for (const call of plan.toolCalls) items.push(callItem(call, itemStatus(plan), call.arguments));
  return items;
}

function response(plan: PlannedReply, stage: "created" | "final", body: Record<string, unknown> = {}) {
  const incomplete = plan.finish === "length";
  return {
    id: plan.id,
    object: "response",
    created_at: plan.created,
    status: stage === "created" ? "in_progress" : incomplete ? "incomplete" : "completed",
    error: null,
    incomplete_details: stage === "final" && incomplete ? { reason: "max_output_tokens" } : null,
    instructions: typeof body.instructions === "string" ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === "number" ? body.max_output_tokens : null,
    model: plan.model,
    output: stage === "created" ? [] : output(plan),
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: "default",
    store: body.store !== false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: stage === "created" ? null : usage(plan),
    user: null,
    metadata: {},
  };
}

function json(plan: PlannedReply, body: Record<string, unknown>): unknown {
  return response(plan, "final", body);
}

function events(plan: PlannedReply, body: Record<string, unknown>): string[] {
  const frames: string[] = [];
  let sequence = 0;
  const event = (data: { type: string; [key: string]: unknown }) =>
    frames.push(sse({ ...data, sequence_number: sequence++ }, data.type));
  event({ type: "response.created", response: response(plan, "created", body) });
  event({ type: "response.in_progress", response: response(plan, "created", body) });
  let outputIndex = 0;
  for (const step of plan.thinking) {
    const at = { item_id: step.itemId, summary_index: 0 };
    event({ type: "response.output_item.added", output_index: outputIndex, item: reasoningItem(step, false) });
    if (step.text !== "") {
      event({ type: "response.reasoning_summary_part.added", ...at, part: { type: "summary_text", text: "" } });
      for (const piece of textPieces(step.text))
        event({ type: "response.reasoning_summary_text.delta", ...at, delta: piece });
      event({ type: "response.reasoning_summary_text.done", ...at, text: step.text });
      event({ type: "response.reasoning_summary_part.done", ...at, part: { type: "summary_text", text: step.text } });
    }
    event({ type: "response.output_item.done", output_index: outputIndex, item: reasoningItem(step, true) });
    outputIndex++;
  }
  if (plan.text !== "") {
    const at = { item_id: plan.messageId, output_index: outputIndex, content_index: 0 };
    event({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: messageItem(plan, "in_progress", undefined),
    });
    event({
      type: "response.content_part.added",
      ...at,
      part: { type: "output_text", annotations: [], logprobs: [], text: "" },
    });
    for (const piece of textPieces(plan.text))
      event({ type: "response.output_text.delta", ...at, delta: piece, logprobs: [] });
    event({ type: "response.output_text.done", ...at, text: plan.text, logprobs: [] });
    event({
      type: "response.content_part.done",
      ...at,
      part: { type: "output_text", annotations: [], logprobs: [], text: plan.text },
    });
    event({
      type: "response.output_item.done",
      output_index: outputIndex,
      item: messageItem(plan, itemStatus(plan), plan.text),
    });
    outputIndex++;
  }
  for (const call of plan.toolCalls) {
    const at = { item_id: call.itemId, output_index: outputIndex };
    event({ type: "response.output_item.added", output_index: outputIndex, item: callItem(call, "in_progress", "") });
    for (const piece of argumentPieces(call.arguments))
      event({ type: "response.function_call_arguments.delta", ...at, delta: piece });
    event({ type: "response.function_call_arguments.done", ...at, arguments: call.arguments });
    event({
      type: "response.output_item.done",
      output_index: outputIndex,
      item: callItem(call, itemStatus(plan), call.arguments),
    });
    outputIndex++;
  }
  const final = response(plan, "final", body);
  event({ type: final.status === "incomplete" ? "response.incomplete" : "response.completed", response: final });
  return frames;
}

export const openAIResponses: Encoder = { json, events, errorBody: openAIErrorBody };
