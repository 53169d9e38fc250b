import { randomUUID } from "node:crypto";
import type { PersonQuestion, QuestionPrompt, QuestionReply } from "../contracts/question.js";
import type { ApprovalPrompt, ApprovalRequest, PersonReply } from "../permission/gate/approval.js";

/** How long an ask waits for a client's answer before it is a deny. */
export const ASK_TIMEOUT_MS = 10 * 60_000;

/** What a client is shown of an ask: the call, its requests with the rules' answers, what "always" would save. */
export interface AskView {
  ask: string;
  tool: string;
  call: string;
  input: Record<string, unknown>;
  requests: Array<{ action: string; resource: string; effect: string }>;
  problem: string | null;
  preview: string | null;
  always: string[];
  alwaysUnavailable: string | null;
  from: { agent: string; description?: string; session: string } | null;
}

/** A client's answer: allow once, always (one of the offered options, by index), or deny (with a message). */
export type ClientReply =
  | { reply: "once" }
  | { reply: "always"; option?: number }
  | { reply: "deny"; message?: string };

/** A question for the person (the question tool, an MCP server's form), as a client is shown it. */
export interface QuestionView extends PersonQuestion {
  question: string;
}

/** A client's answer to a question: the values (checked by the asker), or a no. */
export type ClientAnswer =
  | { action: "accept"; values: Record<string, string | number | boolean | string[]> }
  | { action: "decline" };

interface Pending {
  view: AskView;
  request: ApprovalRequest;
  settle: (reply: PersonReply) => void;
}

/**
 * A session's asks, put to whoever drives it over HTTP. Each waits for an answer (POST), and is a
 * deny when nobody can give one: the turn is cancelled, the last client watching the session's
 * events leaves, or ASK_TIMEOUT_MS passes. Every answer is the person's, through `via`.
 */
export class Asks {
  private readonly pending = new Map<string, Pending>();
  private readonly questions = new Map<string, { view: QuestionView; settle: (reply: QuestionReply) => void }>();

  constructor(
    private readonly via: string,
    private readonly announce: (view: AskView) => void,
    private readonly timeoutMs = ASK_TIMEOUT_MS,
    private readonly announceQuestion: (view: QuestionView) => void = () => undefined,
  ) {}

  /** Questions go to the client the same way: answered, declined, or left when nobody can answer. */
  readonly question: QuestionPrompt = {
    askQuestion: (question, signal) =>
      new Promise<QuestionReply>((resolve) => {
        const id = randomUUID();
        const view: QuestionView = { question: id, ...question };
        const settle = (reply: QuestionReply) => {
          if (!this.questions.delete(id)) return;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve({ via: this.via, ...reply });
        };
        const onAbort = () => settle({ action: "cancel" });
        const timer = setTimeout(() => settle({ action: "cancel" }), this.timeoutMs);
        signal.addEventListener("abort", onAbort, { once: true });
        this.questions.set(id, { view, settle });
        this.announceQuestion(view);
      }),
  };

  listQuestions(): QuestionView[] {
    return [...this.questions.values()].map((q) => q.view);
  }

  /** Answers question `id`; false when no such question waits. */
  answerQuestion(id: string, answer: ClientAnswer, client?: string): boolean {
    const pending = this.questions.get(id);
    if (!pending) return false;
    pending.settle({ ...answer, via: this.through(client) });
    return true;
  }

  /** The surface, and the client's address when known: on a server bound beyond loopback it matters who answered. */
  private through(client: string | undefined): string {
    return client ? `${this.via}, from ${client}` : this.via;
  }

  readonly prompt: ApprovalPrompt = {
    ask: (request, signal) =>
      new Promise<PersonReply>((resolve) => {
        const id = randomUUID();
        const view = viewOf(id, request);
        const settle = (reply: PersonReply) => {
          if (!this.pending.delete(id)) return;
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(reply);
        };
        const onAbort = () => settle({ kind: "cancel", via: this.via });
        const timer = setTimeout(
          () =>
            settle({
              kind: "unanswered",
              why: `no answer within ${Math.round(this.timeoutMs / 1000)} s`,
              via: this.via,
            }),
          this.timeoutMs,
        );
        signal.addEventListener("abort", onAbort, { once: true });
        this.pending.set(id, { view, request, settle });
        this.announce(view);
      }),
  };

  list(): AskView[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  /** Answers ask `id`; false when there is no such ask pending, or the option is not one offered. */
  answer(id: string, reply: ClientReply, client?: string): "answered" | "unknown" | "bad option" {
    const pending = this.pending.get(id);
    if (!pending) return "unknown";
    const via = this.through(client);
    if (reply.reply === "always") {
      const option = pending.request.always.options[reply.option ?? 0];
      if (!option) return "bad option";
      pending.settle({ kind: "always", option, via });
    } else if (reply.reply === "deny") {
      pending.settle({ kind: "deny", ...(reply.message ? { message: reply.message } : {}), via });
    } else {
      pending.settle({ kind: "once", via });
    }
    return "answered";
  }

  /** Every pending ask is a deny by code: nobody is left to answer (the client disconnected). */
  denyAll(why: string): void {
    for (const pending of [...this.pending.values()]) pending.settle({ kind: "unanswered", why, via: this.via });
    // A question nobody is left to answer is left unanswered.
    for (const question of [...this.questions.values()]) question.settle({ action: "cancel" });
  }
}

function viewOf(id: string, request: ApprovalRequest): AskView {
  return {
    ask: id,
    tool: request.tool,
    call: request.callId,
    input: request.input,
    requests: request.outcomes.map((o) => ({
      action: o.request.action,
      resource: o.request.resource,
      effect: o.effect,
    })),
    problem: request.problem ?? null,
    preview: request.preview ?? null,
    always: request.always.options.map((o) => o.label),
    alwaysUnavailable: request.always.unavailable ?? null,
    from: request.from ?? null,
  };
}
