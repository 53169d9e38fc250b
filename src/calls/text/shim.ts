import type { Decision, Holder } from "../../contracts/decisions.js";
import type { ModelToolCall } from "../../contracts/tool-calls.js";
import { resolveToolName } from "../names.js";
import { findTextCalls } from "./classify.js";
import type { FoundCall } from "./found.js";

/** Ids of calls read from text start so: their results go back as text (loop/text-results.ts). */
export const TEXT_CALL_PREFIX = "textcall_";

/** Up to this much of a call's text is kept in its record. */
const RAW_LIMIT = 2048;

/**
 * How a model's calls are read: `configured` (tools: "text": every answer's calls are in its
 * text), `detect` (native tools were sent; an answer with no native call whose text holds a
 * clean call of an offered tool is read as calls), `off` (tools: "native" said explicitly, or none).
 */
export type ShimMode = "configured" | "detect" | "off";

export interface Shimmed {
  calls: ModelToolCall[];
  /** The spans of the text read as calls: the transcript shows the calls, not their text (hold.ts). */
  spans: Array<readonly [number, number]>;
  /** Seat call.shim: the decision to read text as calls (when detected), then one per call. */
  decisions: Decision[];
}

/**
 * Seat `call.shim`: the calls written in an answer's text, each recorded with its format, the
 * span of text and what was read (holder code). Reading grants nothing: the calls go through
 * prepare → gate → run like native ones. When only detected, a call is taken only if every call
 * found reads cleanly, names an offered tool and ends the answer — a model explaining JSON to the
 * person is not calling anything; in every mode a call token inside a fence or a code span is
 * quoted, not a call (classify.ts); once configured, a broken or unknown call is taken, so its error result
 * tells the model what to fix.
 */
export function shimCalls(input: { text: string; mode: ShimMode; tools: readonly string[]; step: number }): Shimmed {
  if (input.mode === "off" || input.text.trim() === "") return { calls: [], spans: [], decisions: [] };
  const found = findTextCalls(input.text).filter((f) => meantAsCall(f, input.tools));
  if (found.length === 0) return { calls: [], spans: [], decisions: [] };
  const decisions: Decision[] = [];
  if (input.mode === "detect") {
    const clean = found.every((f) => !f.envelope.broken && resolveToolName(f.envelope.name, input.tools));
    // A model that calls stops to wait for the result: a call with prose after it is one it quoted.
    const last = Math.max(...found.map((f) => f.end));
    if (!clean || input.text.slice(last).trim() !== "") return { calls: [], spans: [], decisions: [] };
    decisions.push(modeDecision("code", "detected", found, input.step));
  }
  const calls = found.map((f, n) => ({
    id: `${TEXT_CALL_PREFIX}${input.step}_${n + 1}`,
    name: f.envelope.name,
    input: f.envelope.input,
  }));
  found.forEach((f, n) => {
    decisions.push(callDecision(f, input.text, calls[n] as ModelToolCall, input.step));
  });
  return { calls, spans: found.map((f) => [f.start, f.end] as const), decisions };
}

/**
 * A fence or a bare object may be any JSON the model shows (a package.json has a "name"): it is a
 * call only when it names an offered tool or carries arguments. A call token says so by itself.
 */
export function meantAsCall(f: FoundCall, tools: readonly string[]): boolean {
  if (f.format !== "fenced-json" && f.format !== "bare-json") return true;
  return f.envelope.keyed || resolveToolName(f.envelope.name, tools) !== undefined;
}

/** The decision to read calls from text: config's `tools: "text"`, or code's detection. */
export function modeDecision(
  holder: Holder,
  answer: "text" | "detected",
  found: readonly FoundCall[],
  step: number,
  key?: string,
): Decision {
  const detail =
    holder === "config"
      ? `${key ?? "tools"} is "text": tools are described in the system prompt, none sent natively, calls read from the answer`
      : `native tools were sent, but the answer made no native call and its text holds ${found.length} call(s) written as ${found[0]?.format}; read as calls, gated like native ones`;
  return {
    seat: "call.shim",
    holder,
    answer: { mode: answer },
    reasons: [{ rule: holder === "config" ? "configured" : "detected", detail, decisive: true }],
    subject: { step },
  };
}

function callDecision(f: FoundCall, text: string, call: ModelToolCall, step: number): Decision {
  const raw = text.slice(f.start, f.end);
  const kept = raw.length > RAW_LIMIT ? `${raw.slice(0, RAW_LIMIT)}… (${raw.length} characters in all)` : raw;
  return {
    seat: "call.shim",
    holder: "code",
    answer: {
      format: f.format,
      span: [f.start, f.end],
      raw: kept,
      parsed: { name: f.envelope.name, input: keptInput(f.envelope.input) },
    },
    reasons: [
      {
        rule: f.envelope.broken ? "broken" : "read",
        detail: f.envelope.broken
          ? `${f.format}: ${f.envelope.name}, its JSON unreadable (${f.envelope.broken}); its arguments go to call.parse as written`
          : `${f.format}: ${f.envelope.name}`,
        decisive: true,
      },
    ],
    subject: { step, call: call.id, tool: call.name },
  };
}

/** The parsed arguments for the record: whole when small; a huge one (a file's content) is on record in the answer already. */
function keptInput(input: unknown): unknown {
  const text = typeof input === "string" ? input : (JSON.stringify(input) ?? "");
  return text.length > RAW_LIMIT ? `${text.slice(0, RAW_LIMIT)}… (${text.length} characters in all)` : input;
}
