import type { PersonQuestion, QuestionField, QuestionPrompt, QuestionReply } from "../contracts/question.js";
import { checkAnswer } from "../mcp/elicit.js";

/**
 * A question for the person in a plain terminal (`bosun run` with a TTY), on stderr like the
 * approval prompt: who asks and why, answer or decline, then one prompt per field, each checked
 * as it is typed against the asker's form. Ctrl-C or Esc walks away from it (cancel).
 */
export function terminalQuestionPrompt(io: {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}): QuestionPrompt {
  return {
    async askQuestion(question, signal): Promise<QuestionReply> {
      const clack = await import("@clack/prompts");
      const common = { input: io.input as NodeJS.ReadStream, output: io.output as NodeJS.WriteStream, signal };
      clack.note(describeQuestion(question), `${question.from} asks you`, common);
      const answer = await clack.select<string>({
        ...common,
        message: "Answer it?",
        options: [
          { value: "answer", label: "Answer" },
          { value: "decline", label: "Decline" },
        ],
      });
      if (clack.isCancel(answer)) return { action: "cancel" };
      if (answer === "decline") return { action: "decline" };
      const values: Record<string, string | number | boolean | string[]> = {};
      for (const field of question.fields) {
        const fieldProblem = (value: unknown) => {
          const checked = checkAnswer({ ...question, fields: [field] }, { [field.name]: value });
          return checked.ok ? undefined : checked.problems[0];
        };
        const message = `${field.label}${field.required ? "" : " (optional)"}${field.description ? ` — ${field.description}` : ""}`;
        const given = await askField(clack, common, field, message, fieldProblem);
        if (clack.isCancel(given)) return { action: "cancel" };
        if (given !== undefined && given !== "") values[field.name] = given as string | boolean | string[];
      }
      return { action: "accept", values };
    },
  };
}

type Clack = typeof import("@clack/prompts");

function askField(
  clack: Clack,
  common: { input: NodeJS.ReadStream; output: NodeJS.WriteStream; signal: AbortSignal },
  field: QuestionField,
  message: string,
  problem: (value: unknown) => string | undefined,
): Promise<unknown> {
  const options = (field.options ?? []).map((o) => ({ value: o.value, label: o.label }));
  switch (field.kind) {
    case "boolean":
      return clack.confirm({ ...common, message, initialValue: field.default === true });
    case "choice":
      return clack.select<string>({
        ...common,
        message,
        options,
        ...(typeof field.default === "string" ? { initialValue: field.default } : {}),
      });
    case "choices":
      return clack.multiselect<string>({ ...common, message, options, required: field.required });
    default:
      return clack.text({
        ...common,
        message,
        ...(field.default !== undefined ? { initialValue: String(field.default) } : {}),
        validate: (value) =>
          value === undefined || value === ""
            ? field.required
              ? `${field.label}: needed`
              : undefined
            : problem(value),
      });
  }
}

/** The note above the form: the asker's message, and the fields it wants. */
export function describeQuestion(question: PersonQuestion): string {
  const lines = [question.message || "(no message)", ""];
  for (const field of question.fields)
    lines.push(
      `  ${field.label}${field.required ? "" : " (optional)"}: ${field.kind}${field.format ? `, ${field.format}` : ""}`,
    );
  if (question.note) lines.push("", question.note);
  return lines.join("\n");
}
