import type { FinishReason } from "ai";
import type { Answer, Reason } from "../contracts/decisions.js";

/** How many times an empty reply or a cut-off reply is answered by asking again. */
export const EMPTY_RETRIES = 2;
export const LENGTH_CONTINUES = 2;

/**
 * Seat `turn.done`: a response with tool calls continues the turn; one without is the end —
 * unless it is empty, which is asked again twice and then an error.
 */
export function decideDone(input: {
  toolCalls: number;
  text: string;
  emptySoFar: number;
  /** Background delegates of this turn still running: their results are still to come. */
  background?: number;
  /** Items of the todo list not done yet, and whether this turn already reminded the model of them. */
  openTodos?: readonly string[];
  todoReminded?: boolean;
}): Answer<"continue" | "done" | "retry-empty" | "fail-empty" | "wait" | "remind-todo"> {
  if (input.toolCalls > 0) {
    return {
      holder: "model",
      answer: "continue",
      reasons: [{ rule: "tool calls", detail: `${input.toolCalls} call(s) to run`, decisive: true }],
    };
  }
  if ((input.background ?? 0) > 0) {
    return {
      holder: "code",
      answer: "wait",
      reasons: [
        { rule: "the model ended its reply", detail: input.text.trim() === "" ? "empty" : "with text" },
        {
          rule: "background tasks",
          detail: `${input.background} still running: the turn waits for the next to finish and goes on with its result`,
          decisive: true,
        },
      ],
    };
  }
  const open = input.openTodos ?? [];
  if (input.text.trim() !== "" && open.length > 0 && !input.todoReminded) {
    return {
      holder: "code",
      answer: "remind-todo",
      reasons: [
        { rule: "the model ended its reply", detail: "with text" },
        {
          rule: "open todo items",
          detail: `${open.length} not done (${open.slice(0, 3).join("; ")}${open.length > 3 ? "; …" : ""}): reminded once to finish them or say why they stay open`,
          decisive: true,
        },
      ],
    };
  }
  if (input.text.trim() !== "") {
    const reasons: Reason[] = [{ rule: "ended without tool calls", decisive: true }];
    // Reminded once already: the model's word stands, open items and all.
    if (open.length > 0)
      reasons.push({ rule: "open todo items", detail: `${open.length} left open after the reminder` });
    return { holder: "model", answer: "done", reasons };
  }
  if (input.emptySoFar < EMPTY_RETRIES) {
    return {
      holder: "code",
      answer: "retry-empty",
      reasons: [
        { rule: "empty reply", detail: `asked again (${input.emptySoFar + 1} of ${EMPTY_RETRIES})`, decisive: true },
      ],
    };
  }
  return {
    holder: "code",
    answer: "fail-empty",
    reasons: [{ rule: "empty reply", detail: `still empty after ${EMPTY_RETRIES} retries`, decisive: true }],
  };
}

/** Seat `turn.continue_after_length`: output cut at the limit is continued, at most twice. */
export function decideLength(input: {
  finishReason: FinishReason;
  continuedSoFar: number;
}): Answer<"continue" | "fail"> | undefined {
  if (input.finishReason !== "length") return undefined;
  if (input.continuedSoFar < LENGTH_CONTINUES) {
    return {
      holder: "code",
      answer: "continue",
      reasons: [
        {
          rule: "output cut at the limit",
          detail: `continue (${input.continuedSoFar + 1} of ${LENGTH_CONTINUES})`,
          decisive: true,
        },
      ],
    };
  }
  return {
    holder: "code",
    answer: "fail",
    reasons: [
      { rule: "output cut at the limit", detail: `still cut after ${LENGTH_CONTINUES} continuations`, decisive: true },
    ],
  };
}

/** Seat `turn.limit`: the step budget. Recorded only when it stops the turn. */
export function decideLimit(input: { step: number; maxSteps: number; source: string }): Answer<"stop"> | undefined {
  if (input.step <= input.maxSteps) return undefined;
  return {
    holder: "config",
    answer: "stop",
    reasons: [{ rule: "max steps reached", detail: `${input.maxSteps} steps`, source: input.source, decisive: true }],
  };
}

/** From half-way, the model is told how many steps it has left. */
export function budgetNote(step: number, maxSteps: number): string | undefined {
  if (step <= maxSteps / 2) return undefined;
  const left = maxSteps - step + 1;
  return `Step budget: this is step ${step} of ${maxSteps}; ${left} left including this one. Plan to finish within it.`;
}
