import { z } from "zod";
import { type Answer, answeredThrough, type Decision } from "../contracts/decisions.js";
import type { PersonQuestion, QuestionField, QuestionPrompt, QuestionReply } from "../contracts/question.js";
import type { Tool } from "../contracts/tools.js";

/** Options the model may offer; more would not fit a dialog. */
const MAX_OPTIONS = 20;

const schema = z.strictObject({
  question: z.string().min(1).max(2000),
  options: z.array(z.string().min(1).max(200)).min(2).max(MAX_OPTIONS).optional().describe("Answers to pick from"),
  multiple: z.boolean().optional().describe("More than one option may be picked"),
});

export type QuestionInput = z.infer<typeof schema>;

export type QuestionAnswer = "answered" | "declined" | "dismissed" | "nobody" | "unfit";

const CHOICE = "choice";
const OWN = "own_words";

/** The question as the person's face draws it: a choice of the options and a free answer, or a free answer alone. */
export function personQuestion(input: QuestionInput, from = "The agent"): PersonQuestion {
  const own: QuestionField = {
    name: OWN,
    label: input.options ? "Or in your own words" : "Your answer",
    kind: "text",
    required: !input.options,
  };
  const fields: QuestionField[] = input.options
    ? [
        {
          name: CHOICE,
          label: input.multiple ? "Pick any" : "Pick one",
          kind: input.multiple ? "choices" : "choice",
          options: input.options.map((o) => ({ value: o, label: o })),
          required: false,
        },
        own,
      ]
    : [own];
  return { from, message: input.question, fields, note: "Your answer goes to the model." };
}

/**
 * Seat `call.question`: what the model is told of the person's reply (or of nobody being there),
 * and the answer for the record. The ledger says what kind of answer came, never its words. Pure.
 */
export function judgeQuestionReply(
  reply: QuestionReply | undefined,
  asked?: Pick<QuestionInput, "options" | "multiple">,
): Answer<QuestionAnswer> & { output: string; isError: boolean } {
  const unfit = reply ? unfitChoice(reply, asked) : undefined;
  if (unfit) return unfit;
  const judged = judgeReply(reply);
  return reply ? answeredThrough(judged, reply.via) : judged;
}

/**
 * A choice that was never offered (or several where one was asked for) is not the person's answer
 * to this question — a face that did not check it, a client's hand-made reply — so it does not
 * reach the model as chosen (code).
 */
function unfitChoice(
  reply: QuestionReply,
  asked: Pick<QuestionInput, "options" | "multiple"> | undefined,
): (Answer<QuestionAnswer> & { output: string; isError: boolean }) | undefined {
  if (reply.action !== "accept" || !asked) return undefined;
  const picked = reply.values[CHOICE];
  if (picked === undefined) return undefined;
  const chosen = Array.isArray(picked) ? picked : [picked];
  const offered = asked.options ?? [];
  const strange = chosen.filter((c) => typeof c !== "string" || !offered.includes(c));
  const tooMany = !asked.multiple && chosen.length > 1;
  if (strange.length === 0 && !tooMany) return undefined;
  const detail = tooMany
    ? `${chosen.length} choices where one was asked for`
    : `${strange.length} choice(s) never offered`;
  return {
    holder: "code",
    answer: "unfit",
    reasons: [{ rule: "the answer did not fit", detail, decisive: true }],
    output:
      "The answer that came back did not fit the question (a choice that was not offered). Ask again if you still need it.",
    isError: true,
  };
}

function judgeReply(reply: QuestionReply | undefined): Answer<QuestionAnswer> & { output: string; isError: boolean } {
  if (!reply)
    return {
      holder: "code",
      answer: "nobody",
      reasons: [{ rule: "nobody can answer", detail: "no person is attached to this run", decisive: true }],
      output:
        "Nobody can answer questions in this run (no person is attached). Decide for yourself and say what you assumed, or stop and say what you need to know.",
      isError: true,
    };
  if (reply.action !== "accept") {
    const declined = reply.action === "decline";
    return {
      holder: "person",
      answer: declined ? "declined" : "dismissed",
      reasons: [{ rule: declined ? "the person declined" : "the person left it unanswered", decisive: true }],
      output: declined
        ? "The person declined to answer. Do not ask again; go on without it or stop and say why you cannot."
        : "The person dismissed the question without answering.",
      isError: true,
    };
  }
  const picked = reply.values[CHOICE];
  const chosen = Array.isArray(picked) ? picked : typeof picked === "string" ? [picked] : [];
  const own = typeof reply.values[OWN] === "string" ? (reply.values[OWN] as string).trim() : "";
  const parts = [
    ...(chosen.length > 0 ? [`The person chose: ${chosen.join("; ")}`] : []),
    ...(own ? [`The person answered: ${own}`] : []),
  ];
  const kind = [chosen.length > 0 ? `${chosen.length} option(s)` : "", own ? "own words" : ""].filter(Boolean);
  return {
    holder: "person",
    answer: "answered",
    reasons: [
      { rule: "the person answered", detail: kind.length > 0 ? kind.join(" and ") : "nothing", decisive: true },
    ],
    output: parts.length > 0 ? parts.join("\n") : "The person gave an empty answer.",
    isError: false,
  };
}

/**
 * The `question` tool: asks the person through the face's question prompt (the TUI's dialog,
 * the terminal's prompt; an editor's or a client's later). Absent prompt: nobody is there, and
 * the model is told so as an error it can act on. Each reply is recorded (seat call.question).
 */
export function questionTool(io: {
  ask?: QuestionPrompt;
  record: (decision: Decision) => void;
  /** Who asks, as the person reads it: a delegate names its agent. */
  from?: string;
}): Tool<QuestionInput> {
  return {
    name: "question",
    description:
      "Ask the person when a decision is theirs (a preference, a missing fact, a choice of approach); wait for the answer.",
    schema,
    kind: "read",
    // Asking changes nothing and reads nothing: its one request is `question:person`, allowed by default.
    requests: async () => ({ requests: [{ action: "question", resource: "person" }] }),
    async execute(input, context) {
      const reply = io.ask
        ? await io.ask
            .askQuestion(personQuestion(input, io.from), context.signal)
            .catch((): QuestionReply => ({ action: "cancel" }))
        : undefined;
      const { output, isError, ...answer } = judgeQuestionReply(reply, input);
      io.record({ seat: "call.question", ...answer, subject: { call: context.callId } });
      return { output, isError, summary: `question (${answer.answer})` };
    },
  };
}
