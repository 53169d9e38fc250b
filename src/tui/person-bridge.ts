import type { PersonQuestion, QuestionPrompt, QuestionReply } from "../contracts/question.js";
import type { ApprovalPrompt, ApprovalRequest, PersonReply } from "../permission/gate/approval.js";
import type { Loosening, TrustPrompt } from "../permission/trust/project-trust.js";
import type { TrustReply } from "./trust-dialog.js";

/** What the drawn app does with a question for the person, and with a warning. */
export interface PersonHandlers {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<PersonReply>;
  askTrust(loosening: Loosening, signal: AbortSignal): Promise<TrustReply>;
  askQuestion(question: PersonQuestion, signal: AbortSignal): Promise<QuestionReply>;
  notice(text: string): void;
}

/**
 * The way from the session, opening behind the drawn prompt, to the person at it: questions
 * asked while the session opens (trust the repository's config? run the MCP server it brings?)
 * become the app's dialogs, and warnings lines of its transcript — never text written across
 * Ink's screen. What comes before the app is drawn waits for it. The session opens again on
 * every switch (/model, /agent, a custom command's own model): a question answered for a
 * session is answered the same way when that session opens again, not asked twice; another
 * session (/new, /resume) is asked afresh (an "always" is saved anyway).
 */
export interface PersonBridge {
  /** The questions of one opening, answered from what was said for the same session before. */
  forSession(key: string): { prompt: ApprovalPrompt; trust: TrustPrompt; question: QuestionPrompt };
  /** The session opened under `key` is `id`: what was answered for it holds under its id too. */
  alias(key: string, id: string): void;
  warn(text: string): void;
  /** The app, once drawn, takes the questions. */
  attach(handlers: PersonHandlers): void;
}

interface Answers {
  trusted: Map<string, TrustReply>;
  replied: Map<string, PersonReply>;
}

export function personBridge(): PersonBridge {
  let handlers: PersonHandlers | undefined;
  const sessions = new Map<string, Answers>();
  const answersFor = (key: string): Answers => {
    let answers = sessions.get(key);
    if (!answers) {
      answers = { trusted: new Map(), replied: new Map() };
      sessions.set(key, answers);
    }
    return answers;
  };
  const waiting: Array<(h: PersonHandlers) => void> = [];
  const drawn = () =>
    handlers ? Promise.resolve(handlers) : new Promise<PersonHandlers>((resolve) => waiting.push(resolve));
  return {
    forSession(key) {
      const { trusted, replied } = answersFor(key);
      return {
        // A question still open when the session ends (the person left) is a no, so nothing waits on it.
        prompt: {
          ask: (request, signal) =>
            untilAborted(signal, { kind: "cancel" }, async () => {
              const asked = JSON.stringify([request.tool, request.input]);
              const earlier = replied.get(asked);
              if (earlier) return earlier;
              const reply = await (await drawn()).ask(request, signal);
              // Leaving the dialog (Esc) decides nothing for later; an answer does.
              if (reply.kind !== "cancel") replied.set(asked, reply);
              return reply;
            }),
        },
        // A form is asked every time: a server asking again wants a new answer.
        question: {
          askQuestion: (question, signal) =>
            untilAborted<QuestionReply>(signal, { action: "cancel" }, async () =>
              (await drawn()).askQuestion(question, signal),
            ),
        },
        trust: {
          askTrust: (loosening, signal) =>
            untilAborted(signal, "no", async () => {
              const earlier = trusted.get(loosening.fingerprint);
              if (earlier) return earlier;
              const reply = await (await drawn()).askTrust(loosening, signal);
              trusted.set(loosening.fingerprint, reply);
              return reply;
            }),
        },
      };
    },
    alias(key, id) {
      if (key !== id) sessions.set(id, answersFor(key));
    },
    warn(text) {
      void drawn().then((h) => h.notice(`bosun: ${text}`));
    },
    attach(next) {
      handlers = next;
      for (const resolve of waiting.splice(0)) resolve(next);
    },
  };
}

/** The answer, or `fallback` as soon as `signal` aborts. */
function untilAborted<T>(signal: AbortSignal, fallback: T, answer: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.resolve(fallback);
  return new Promise<T>((resolve, reject) => {
    const stop = () => resolve(fallback);
    signal.addEventListener("abort", stop, { once: true });
    answer().then(
      (value) => {
        signal.removeEventListener("abort", stop);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", stop);
        reject(error);
      },
    );
  });
}
