import type { CreateElicitationResponse, ElicitationPropertySchema, ElicitationSchema } from "@agentclientprotocol/sdk";
import type { PersonQuestion, QuestionField, QuestionReply } from "../contracts/question.js";

/**
 * A question for the person (the question tool's, an MCP server's form) as an ACP form
 * elicitation's schema: one property per field, its bounds and options kept. Pure.
 */
export function formOf(question: PersonQuestion): ElicitationSchema {
  return {
    type: "object",
    properties: Object.fromEntries(question.fields.map((field) => [field.name, propertyOf(field)])),
    required: question.fields.filter((f) => f.required).map((f) => f.name),
  };
}

/** The message the editor shows above the form: who asks, what, and where the answer goes. */
export function formMessage(question: PersonQuestion): string {
  return [`${question.from} asks: ${question.message}`, ...(question.note ? [question.note] : [])].join("\n\n");
}

/**
 * The editor's answer as the person's reply: accepted values only of the fields asked (the
 * caller checks them against the asker's schema, as for any face); any other action is a
 * cancel — the person walked away from it.
 */
export function questionReplyOf(question: PersonQuestion, response: CreateElicitationResponse): QuestionReply {
  if (response.action === "decline") return { action: "decline" };
  if (response.action !== "accept") return { action: "cancel" };
  const content = ((response as { content?: unknown }).content ?? {}) as Record<string, unknown>;
  const values: Record<string, string | number | boolean | string[]> = {};
  for (const field of question.fields) {
    const value = content[field.name];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      values[field.name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === "string")) values[field.name] = value;
  }
  return { action: "accept", values };
}

function propertyOf(field: QuestionField): ElicitationPropertySchema {
  const base = { title: field.label, ...(field.description ? { description: field.description } : {}) };
  const bounds = (low: string, high: string) => ({
    ...(field.min !== undefined ? { [low]: field.min } : {}),
    ...(field.max !== undefined ? { [high]: field.max } : {}),
  });
  switch (field.kind) {
    case "boolean":
      return { type: "boolean", ...base, ...(typeof field.default === "boolean" ? { default: field.default } : {}) };
    case "number":
    case "integer":
      return {
        type: field.kind,
        ...base,
        ...bounds("minimum", "maximum"),
        ...(typeof field.default === "number" ? { default: field.default } : {}),
      };
    case "choice":
      return {
        type: "string",
        ...base,
        oneOf: (field.options ?? []).map((o) => ({ const: o.value, title: o.label })),
        ...(typeof field.default === "string" ? { default: field.default } : {}),
      };
    case "choices":
      return {
        type: "array",
        ...base,
        items: { anyOf: (field.options ?? []).map((o) => ({ const: o.value, title: o.label })) },
        ...bounds("minItems", "maxItems"),
      } as ElicitationPropertySchema;
    default:
      return {
        type: "string",
        ...base,
        ...bounds("minLength", "maxLength"),
        ...(isFormat(field.format) ? { format: field.format } : {}),
        ...(typeof field.default === "string" ? { default: field.default } : {}),
      };
  }
}

function isFormat(format: string | undefined): format is "email" | "uri" | "date" | "date-time" {
  return format === "email" || format === "uri" || format === "date" || format === "date-time";
}
