/**
 * A question for the person that is not an approval: a form of a few fields (an MCP server's
 * elicitation; later the question tool). Faces draw it (a terminal prompt, a TUI dialog, an
 * editor's); what comes back is the person's. With nobody there, no face is given and the
 * asker's caller answers for them (declined), saying so.
 */

export type QuestionFieldKind = "text" | "number" | "integer" | "boolean" | "choice" | "choices";

export interface QuestionField {
  /** The key the answer goes under. */
  name: string;
  /** What the person reads: the field's title, else its name. */
  label: string;
  description?: string;
  kind: QuestionFieldKind;
  /** For choice and choices: the values offered, with what the person reads. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  required: boolean;
  default?: string | number | boolean | readonly string[];
  /** Bounds, when the asker set them: text length, number range, how many choices. */
  min?: number;
  max?: number;
  /** A text's expected shape (email, uri, date, date-time): shown, and checked. */
  format?: string;
}

export interface PersonQuestion {
  /** Who asks, as the person reads it: "MCP server github". */
  from: string;
  message: string;
  fields: readonly QuestionField[];
  /** Where the answer goes, as the person should know before typing it. */
  note?: string;
}

/** The person's answer: the values given, a no, or walking away from the question. */
export type QuestionReply = (
  | { action: "accept"; values: Record<string, string | number | boolean | string[]> }
  | { action: "decline" }
  | { action: "cancel" }
) & {
  /** The surface the answer came through when not this terminal (a server's client, an editor), for the record. */
  via?: string;
};

/** A face that can put a question to the person. */
export interface QuestionPrompt {
  askQuestion(question: PersonQuestion, signal: AbortSignal): Promise<QuestionReply>;
}
