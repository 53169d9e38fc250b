/**
 * What of an answer's streaming text may be shown as it comes, when calls may be written in it
 * (seat call.shim not off): everything before the first place a call could start — a call
 * token, a fence a call is written in, an answer that opens as JSON — is shown at once; from
 * there on it is held until the answer is whole, and then shown without the spans read as calls
 * (the calls are shown as calls). A fence is held only while it is open: once closed, one that
 * holds no call streams on (a model showing JSON to the person is not kept waiting to the end).
 * Prose with none of these streams as before. Pure: the caller emits what it is given.
 */
import { fencedCalls } from "./fenced.js";

/** The tokens a model's call format opens with (mistral, hermes, llama). */
const TOKENS = ["[TOOL_CALLS]", "<tool_call>", "<|python_tag|>"];

/** A fence's opening line that a call may be written in (fenced.ts reads these). */
const CALL_FENCE = /^```(?:json|tool_call|tool|javascript)?[ \t]*$/;

export interface TextHold {
  /** Takes a chunk; gives what may be shown now ("" while held). */
  push(chunk: string): string;
  /** The answer is whole (`text`, as on record): what is left to show, without the spans read as calls. */
  end(text: string, spans: ReadonlyArray<readonly [number, number]>): string;
}

export function textHold(): TextHold {
  let seen = "";
  let shown = 0;
  let holding = false;
  return {
    push(chunk) {
      seen += chunk;
      if (holding) return "";
      const stop = holdAt(seen);
      const upTo = stop === undefined ? seen.length : stop.at;
      if (stop?.sure) holding = true;
      const out = seen.slice(shown, Math.max(upTo, shown));
      shown = Math.max(upTo, shown);
      return out;
    },
    end(text, spans) {
      // The answer on record is what streamed; if not (a provider that did not stream it), it is what is shown.
      const from = text.startsWith(seen.slice(0, shown)) ? shown : 0;
      return withoutSpans(text, spans, from);
    },
  };
}

/** `text` from `from` on, with the spans (of the whole text) taken out. */
export function withoutSpans(text: string, spans: ReadonlyArray<readonly [number, number]>, from = 0): string {
  let out = "";
  let at = from;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (end <= at) continue;
    if (start > at) out += text.slice(at, start);
    at = Math.max(at, end);
  }
  out += text.slice(at);
  return out;
}

/**
 * Where a call may start in the text so far: `sure` (a token, a call's fence, JSON opening the
 * answer) holds the rest; otherwise the start of what could still become one (half a token, a
 * fence whose first line is not complete) waits for more.
 */
function holdAt(text: string): { at: number; sure: boolean } | undefined {
  const first = text.search(/\S/);
  // The whole answer one JSON object or list (bare-json, llama): nothing of it is prose.
  if (first >= 0 && (text[first] === "{" || text[first] === "[")) {
    // "[" may open "[TOOL_CALLS]": that is a token, held all the same.
    return { at: first, sure: true };
  }
  let best: { at: number; sure: boolean } | undefined;
  const consider = (at: number, sure: boolean) => {
    if (!best || at < best.at) best = { at, sure };
  };
  for (const token of TOKENS) {
    const at = text.indexOf(token);
    if (at >= 0) consider(at, true);
  }
  const fence = fenceAt(text);
  if (fence) consider(fence.at, fence.sure);
  const partial = partialTail(text);
  if (partial !== undefined) consider(partial, false);
  return best;
}

/** The first fence a call could be in; a fence in another language is skipped whole. */
function fenceAt(text: string): { at: number; sure: boolean } | undefined {
  let from = 0;
  for (;;) {
    const at = text.indexOf("```", from);
    if (at < 0) return undefined;
    const lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) return { at, sure: false };
    const close = text.indexOf("```", lineEnd + 1);
    if (CALL_FENCE.test(text.slice(at, lineEnd))) {
      // Open: it may still become a call, held for now (and looked at again with the next chunk).
      if (close < 0) return { at, sure: false };
      if (fencedCalls(text.slice(at, close + 3)).length > 0) return { at, sure: true };
    } else if (close < 0) return undefined;
    from = close + 3;
  }
}

/** Where the text ends in the beginning of a token or a fence ("<tool_", "[TOOL", "``"): it may be one. */
function partialTail(text: string): number | undefined {
  for (const token of [...TOKENS, "```"]) {
    for (let n = Math.min(token.length - 1, text.length); n > 0; n--) {
      if (text.endsWith(token.slice(0, n))) return text.length - n;
    }
  }
  return undefined;
}
