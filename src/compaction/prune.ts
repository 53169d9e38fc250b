import type { ModelMessage, ToolModelMessage } from "ai";
import type { Decision } from "../contracts/decisions.js";
import { estimateTokens, outputText } from "./estimate.js";

export interface PrunedOutput {
  toolCallId: string;
  toolName: string;
  /** Estimated tokens of the output that was left out. */
  tokens: number;
}

/** bosun's own notes reach the model as user messages starting with this; they are not the person's. */
const NOTE_PREFIX = "[bosun] ";

/** The one line that stands for a pruned output. */
export function prunedNote(toolName: string, toolCallId: string, tokens: number): string {
  return `[output of ${toolName} ${toolCallId} pruned: ~${tokens} tokens; the session store keeps it]`;
}

/**
 * Seat `context.prune`: old tool outputs sent only as a one-line note. The outputs of tool
 * results before the newest message of the person (bosun's own `[bosun] ` notes do not count:
 * the turn in progress keeps its results) are replaced oldest first, until those outputs — notes
 * included — fit `budgetTokens`. The newest exchange is never touched; neither is the store:
 * this changes only what is sent. The input array is not modified.
 */
export function pruneToolOutputs(
  messages: readonly ModelMessage[],
  budgetTokens: number,
): { messages: ModelMessage[]; pruned: PrunedOutput[] } {
  let boundary = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as ModelMessage;
    if (message.role === "user" && !userText(message).startsWith(NOTE_PREFIX)) {
      boundary = i;
      break;
    }
  }
  const candidates: Array<{ at: number; part: number; toolCallId: string; toolName: string; tokens: number }> = [];
  for (let at = 0; at < boundary; at++) {
    const message = messages[at] as ModelMessage;
    if (message.role !== "tool") continue;
    message.content.forEach((part, index) => {
      if (part.type !== "tool-result") return;
      const tokens = estimateTokens(outputText(part.output));
      candidates.push({ at, part: index, toolCallId: part.toolCallId, toolName: part.toolName, tokens });
    });
  }
  let total = candidates.reduce((sum, c) => sum + c.tokens, 0);
  const out = [...messages];
  const pruned: PrunedOutput[] = [];
  for (const candidate of candidates) {
    if (total <= budgetTokens) break;
    const note = prunedNote(candidate.toolName, candidate.toolCallId, candidate.tokens);
    const noteTokens = estimateTokens(note);
    // An output no longer than its note stays: replacing it would save nothing.
    if (candidate.tokens <= noteTokens) continue;
    const message = out[candidate.at] as ToolModelMessage;
    const content = [...message.content];
    const part = content[candidate.part];
    if (part?.type !== "tool-result") continue;
    const isError = part.output.type === "error-text" || part.output.type === "error-json";
    content[candidate.part] = {
      ...part,
      output: isError ? { type: "error-text", value: note } : { type: "text", value: note },
    };
    out[candidate.at] = { ...message, content };
    total += noteTokens - candidate.tokens;
    pruned.push({ toolCallId: candidate.toolCallId, toolName: candidate.toolName, tokens: candidate.tokens });
  }
  return { messages: pruned.length > 0 ? out : [...messages], pruned };
}

/** The context.prune decision for what pruneToolOutputs left out (holder config: compaction.prune_tokens). */
export function pruneDecision(pruned: readonly PrunedOutput[], budget: number, source?: string): Decision {
  const tokens = pruned.reduce((sum, p) => sum + p.tokens, 0);
  const shown = pruned.slice(0, 20).map((p) => `${p.toolName} ${p.toolCallId} ~${p.tokens}`);
  const more = pruned.length > shown.length ? `, and ${pruned.length - shown.length} more` : "";
  return {
    seat: "context.prune",
    holder: "config",
    answer: { pruned: pruned.length, tokens },
    reasons: [
      {
        rule: "tool outputs before the newest user message over compaction.prune_tokens",
        detail:
          pruned.length === 0
            ? `within ${budget} tokens: nothing pruned`
            : `budget ${budget} tokens; sent as a note, oldest first: ${shown.join(", ")}${more}`,
        key: "compaction.prune_tokens",
        ...(source ? { source } : {}),
        decisive: true,
      },
      { rule: "the store keeps every output whole", detail: "only what is sent changes" },
    ],
  };
}

function userText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  const first = message.content[0] as { type: string; text?: string } | undefined;
  return first?.type === "text" ? (first.text ?? "") : "";
}
