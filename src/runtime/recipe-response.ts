import type { ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Decision } from "../contracts/decisions.js";
import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import { boundedRegExp, PatternTimeout } from "../util/bounded-regexp.js";

/** How many times the model is asked again for an answer that fits the recipe's response schema. */
export const RESPONSE_RETRIES = 2;

export type ResponseCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** A response schema compiled with Ajv2020 (draft 2020-12); loaded only when a recipe has one. */
export type ResponseValidator = (text: string) => ResponseCheck;

/**
 * Compiles a recipe's `response` schema; a schema Ajv cannot compile is the recipe's error,
 * given as a message (bosun recipe validate prints it, a run stops with it before the model is asked).
 */
export async function compileResponse(schema: Record<string, unknown>): Promise<ResponseValidator | { error: string }> {
  // A repository's patterns, matched against the model's answer: each match bounded (util/bounded-regexp.ts).
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, code: { regExp: boundedRegExp } });
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return { error: `the schema cannot be compiled: ${(error as Error).message}` };
  }
  return (text) => {
    const parsed = parseAnswer(text);
    if (!parsed.ok) return parsed;
    try {
      if (validate(parsed.value)) return { ok: true, value: parsed.value };
    } catch (error) {
      if (error instanceof PatternTimeout) return { ok: false, problems: [error.message] };
      throw error;
    }
    return { ok: false, problems: (validate.errors ?? []).map(describe) };
  };
}

/** The final answer as JSON: the whole text, or the one ```json fence it holds. */
function parseAnswer(text: string): ResponseCheck {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(trimmed);
  const body = fenced ? (fenced[1] as string) : trimmed;
  if (body === "") return { ok: false, problems: ["the answer is empty: a JSON value was expected"] };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, problems: [`the answer is not JSON: ${(error as Error).message}`] };
  }
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === "" ? "(the answer)" : error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") return `${at}: missing ${JSON.stringify(params.missingProperty)} (required)`;
  if (error.keyword === "additionalProperties")
    return `${at}: unknown property ${JSON.stringify(params.additionalProperty)}`;
  return `${at}: ${error.message ?? error.keyword}`;
}

/** What the model is told when its answer does not fit: the problems, and what to send instead. */
export function askAgainText(problems: readonly string[], schema: Record<string, unknown>): string {
  return [
    "Your final answer does not satisfy the recipe's response schema:",
    ...problems.map((p) => `- ${p}`),
    "Answer again with only the JSON value, nothing else. The schema:",
    JSON.stringify(schema, null, 2),
  ].join("\n");
}

/**
 * Seat `recipe.response`: did the final answer satisfy the recipe's response schema? Valid, or
 * invalid and asked again (up to RESPONSE_RETRIES times), or failed — the run ends as a failure
 * (exit 1), never as done.
 */
export function responseDecision(
  check: ResponseCheck,
  attempt: number,
  file: string,
): Decision<"valid" | "invalid" | "failed"> {
  const answer = check.ok ? "valid" : attempt <= RESPONSE_RETRIES ? "invalid" : "failed";
  return {
    seat: "recipe.response",
    holder: "code",
    answer,
    reasons: [
      check.ok
        ? {
            rule: "schema met",
            detail: "the final answer is JSON that the response schema accepts",
            source: file,
            decisive: true,
          }
        : { rule: "schema not met", detail: check.problems.join("; ").slice(0, 2_000), source: file, decisive: true },
      ...(answer === "invalid"
        ? [{ rule: "asked again", detail: `try ${attempt} of ${RESPONSE_RETRIES} more, with the problems` }]
        : []),
      ...(answer === "failed"
        ? [{ rule: "retries spent", detail: `asked again ${RESPONSE_RETRIES} times: the run fails (exit 1)` }]
        : []),
    ],
    subject: { attempt },
  };
}

/** A turn to ask again in, and where the answers go: the run's session, or a sub-recipe's delegate. */
export interface ResponseIo {
  turn: (text: string) => Promise<TurnOutcome>;
  record: (decision: Decision) => void;
  emit: (event: RunEvent) => void;
}

/**
 * A recipe's `response`: the final answer of a turn that ended done must be JSON its schema
 * accepts (seat recipe.response, each answer recorded); one that does not is sent back with the
 * problems, at most RESPONSE_RETRIES times, then the run fails — never done. `file` names the
 * recipe in what is said.
 */
export async function untilSchemaMet(
  first: TurnOutcome,
  response: { schema: Record<string, unknown>; validate: ResponseValidator },
  file: string,
  io: ResponseIo,
): Promise<TurnOutcome & { response?: unknown }> {
  let outcome = first;
  for (let attempt = 1; ; attempt++) {
    if (outcome.status !== "done") return outcome;
    const check = response.validate(outcome.lastText ?? "");
    const decision = responseDecision(check, attempt, file);
    io.record(decision);
    if (check.ok) return { ...outcome, response: check.value };
    if (decision.answer === "failed") {
      const message = `the final answer does not satisfy the recipe's response schema (${file}): ${check.problems.join("; ")}`;
      io.emit({ type: "error", message });
      return { ...outcome, status: "failed", message };
    }
    outcome = await io.turn(askAgainText(check.problems, response.schema));
  }
}
