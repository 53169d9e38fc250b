import { type Answer, answeredThrough } from "../contracts/decisions.js";
import type { PersonQuestion, QuestionField, QuestionReply } from "../contracts/question.js";

/**
 * An MCP server's elicitation (`elicitation/create`): the server asks the person for a few
 * values. The request's flat schema becomes a question any face can draw; the person's answer
 * goes back checked against that schema; with nobody there it is declined (seat mcp.elicit).
 * Only form elicitation is offered: a URL one would send the person to a page bosun cannot vouch
 * for, so the client does not declare it and refuses it if asked anyway.
 */

type Values = Record<string, string | number | boolean | string[]>;

/** What goes back to the server: the MCP ElicitResult. */
export type ElicitResult = { action: "accept"; content: Values } | { action: "decline" } | { action: "cancel" };

type Prop = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** The choices of an enum property, in any of the spec's three spellings. */
function optionsOf(prop: Prop): Array<{ value: string; label: string }> | undefined {
  const source = prop.type === "array" ? ((prop.items ?? {}) as Prop) : prop;
  if (Array.isArray(source.enum)) {
    const names = Array.isArray(prop.enumNames) ? prop.enumNames : [];
    return source.enum.map((value, i) => ({ value: String(value), label: str(names[i]) ?? String(value) }));
  }
  const titled = Array.isArray(source.oneOf) ? source.oneOf : Array.isArray(source.anyOf) ? source.anyOf : undefined;
  return titled?.map((entry) => {
    const e = entry as Prop;
    return { value: String(e.const), label: str(e.title) ?? String(e.const) };
  });
}

function fieldOf(name: string, prop: Prop, required: boolean): QuestionField | string {
  const options = optionsOf(prop);
  const kind =
    prop.type === "array" && options
      ? "choices"
      : options
        ? "choice"
        : prop.type === "string"
          ? "text"
          : prop.type === "number" || prop.type === "integer" || prop.type === "boolean"
            ? prop.type
            : undefined;
  if (!kind) return `the field ${name} is of a type a form cannot ask for (${JSON.stringify(prop.type)})`;
  const field: QuestionField = { name, label: str(prop.title) ?? name, kind, required };
  const description = str(prop.description);
  if (description) field.description = description;
  if (options) field.options = options;
  const min = num(prop.minLength) ?? num(prop.minimum) ?? num(prop.minItems);
  const max = num(prop.maxLength) ?? num(prop.maximum) ?? num(prop.maxItems);
  if (min !== undefined) field.min = min;
  if (max !== undefined) field.max = max;
  const format = str(prop.format);
  if (format) field.format = format;
  const fallback = prop.default;
  if (
    typeof fallback === "string" ||
    typeof fallback === "number" ||
    typeof fallback === "boolean" ||
    (Array.isArray(fallback) && fallback.every((v) => typeof v === "string"))
  )
    field.default = fallback as QuestionField["default"];
  return field;
}

/** The server's request as a question for the person, or why it cannot be one. */
export function questionFromElicitation(
  server: string,
  params: { mode?: string; message?: unknown; requestedSchema?: unknown },
): { ok: true; question: PersonQuestion } | { ok: false; reason: string } {
  if (params.mode !== undefined && params.mode !== "form")
    return { ok: false, reason: `a ${String(params.mode)} elicitation (bosun answers forms only)` };
  const schema = (params.requestedSchema ?? {}) as Prop;
  const properties = (schema.properties ?? {}) as Record<string, Prop>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields: QuestionField[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const field = fieldOf(name, prop ?? {}, required.has(name));
    if (typeof field === "string") return { ok: false, reason: field };
    fields.push(field);
  }
  const message = typeof params.message === "string" ? params.message.slice(0, 2000) : "";
  const note = "What you type goes to the server only; the session's record names the fields, not the values.";
  return { ok: true, question: { from: `MCP server ${server}`, message, fields, note } };
}

const FORMATS: Record<string, RegExp> = {
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
};

/** One field's value, read from what a face gave (a terminal gives text), or the problem with it. */
function checkField(field: QuestionField, given: unknown): { value?: Values[string]; problem?: string } {
  const label = field.label;
  switch (field.kind) {
    case "boolean": {
      if (typeof given === "boolean") return { value: given };
      const text = String(given).trim().toLowerCase();
      if (["y", "yes", "true"].includes(text)) return { value: true };
      if (["n", "no", "false"].includes(text)) return { value: false };
      return { problem: `${label}: answer yes or no` };
    }
    case "number":
    case "integer": {
      const value = typeof given === "number" ? given : Number(String(given).trim());
      if (!Number.isFinite(value) || String(given).trim() === "") return { problem: `${label}: a number is needed` };
      if (field.kind === "integer" && !Number.isInteger(value))
        return { problem: `${label}: a whole number is needed` };
      if (field.min !== undefined && value < field.min) return { problem: `${label}: at least ${field.min}` };
      if (field.max !== undefined && value > field.max) return { problem: `${label}: at most ${field.max}` };
      return { value };
    }
    case "choice": {
      const value = String(given);
      if (!field.options?.some((o) => o.value === value)) return { problem: `${label}: not one of the choices` };
      return { value };
    }
    case "choices": {
      const values = Array.isArray(given) ? given.map(String) : [];
      if (values.some((v) => !field.options?.some((o) => o.value === v)))
        return { problem: `${label}: not one of the choices` };
      if (field.min !== undefined && values.length < field.min)
        return { problem: `${label}: pick ${field.min} or more` };
      if (field.max !== undefined && values.length > field.max)
        return { problem: `${label}: pick ${field.max} at most` };
      return { value: values };
    }
    default: {
      const value = String(given);
      if (field.min !== undefined && value.length < field.min)
        return { problem: `${label}: ${field.min} characters or more` };
      if (field.max !== undefined && value.length > field.max)
        return { problem: `${label}: ${field.max} characters at most` };
      const shape = field.format ? FORMATS[field.format] : undefined;
      if (shape && !shape.test(value)) return { problem: `${label}: not a valid ${field.format}` };
      return { value };
    }
  }
}

/** The person's values, checked against the question's fields: what goes back, or what is wrong. */
export function checkAnswer(
  question: PersonQuestion,
  given: Record<string, unknown>,
): { ok: true; values: Values } | { ok: false; problems: string[] } {
  const values: Values = {};
  const problems: string[] = [];
  for (const field of question.fields) {
    const raw = given[field.name];
    if (raw === undefined || raw === "") {
      if (field.required) problems.push(`${field.label}: needed`);
      continue;
    }
    const { value, problem } = checkField(field, raw);
    if (problem) problems.push(problem);
    else if (value !== undefined) values[field.name] = value;
  }
  // Keys the form did not ask for are not passed on: the server gets only what it asked.
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

/**
 * What the client answers the server (seat mcp.elicit): the person's reply, checked; a form that
 * cannot be drawn is declined (code); with nobody there it is declined, saying so (code).
 */
export function decideElicitation(input: ElicitationInput): Answer<ElicitResult["action"]> & { result: ElicitResult } {
  const decided = decide(input);
  return decided.holder === "person" ? answeredThrough(decided, input.reply?.via) : decided;
}

interface ElicitationInput {
  server: string;
  asked: ReturnType<typeof questionFromElicitation>;
  /** The person's reply; undefined when nobody can answer. */
  reply?: QuestionReply;
  /** Why nobody can answer (no terminal, a background run). */
  nobody?: string;
}

function decide(input: ElicitationInput): Answer<ElicitResult["action"]> & { result: ElicitResult } {
  const rule = `MCP server ${input.server} asks the person`;
  if (!input.asked.ok)
    return {
      holder: "code",
      answer: "decline",
      result: { action: "decline" },
      reasons: [{ rule, detail: `declined: ${input.asked.reason}`, decisive: true }],
    };
  if (!input.reply)
    return {
      holder: "code",
      answer: "decline",
      result: { action: "decline" },
      reasons: [
        { rule, detail: input.asked.question.message },
        { rule: "nobody can answer", detail: input.nobody ?? "no person is at this session", decisive: true },
      ],
    };
  const reply = input.reply;
  if (reply.action !== "accept")
    return {
      holder: "person",
      answer: reply.action,
      result: { action: reply.action },
      reasons: [
        {
          rule,
          detail: reply.action === "decline" ? "the person said no" : "the person left the question",
          decisive: true,
        },
      ],
    };
  const checked = checkAnswer(input.asked.question, reply.values);
  if (!checked.ok)
    return {
      holder: "code",
      answer: "decline",
      result: { action: "decline" },
      reasons: [{ rule, detail: `the answer did not fit the form: ${checked.problems.join("; ")}`, decisive: true }],
    };
  return {
    holder: "person",
    answer: "accept",
    result: { action: "accept", content: checked.values },
    // The values may be secrets the person typed for the server: the ledger names the fields only.
    reasons: [{ rule, detail: `answered ${Object.keys(checked.values).join(", ") || "(nothing)"}`, decisive: true }],
  };
}
