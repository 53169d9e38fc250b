import type { ApprovalPrompt, ApprovalRequest, PersonReply } from "../permission/approval.js";
import type { Loosening, TrustPrompt } from "../permission/project-trust.js";
import type { TrustReply } from "./trust-dialog.js";

/** What the drawn app does with a question for the person, and with a warning. */
export interface PersonHandlers {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<PersonReply>;
  askTrust(loosening: Loosening, signal: AbortSignal): Promise<TrustReply>;
  notice(text: string): void;
}

/**
 * The way from the session, opening behind the drawn prompt, to the person at it: questions
 * asked while the session opens (trust the repository's config? run the MCP server it brings?)
 * become the app's dialogs, and warnings lines of its transcript — never text written across
 * Ink's screen. What comes before the app is drawn waits for it. The session opens again on
 * every switch (/model, /agent, a custom command's own model): a question answered once is
 * answered the same way for the rest of this bosun, not asked again (an "always" is saved anyway).
 */
export interface PersonBridge {
  prompt: ApprovalPrompt;
  trust: TrustPrompt;
  warn(text: string): void;
  /** The app, once drawn, takes the questions. */
  attach(handlers: PersonHandlers): void;
}

export function personBridge(): PersonBridge {
  let handlers: PersonHandlers | undefined;
  const trusted = new Map<string, TrustReply>();
  const replied = new Map<string, PersonReply>();
  const waiting: Array<(h: PersonHandlers) => void> = [];
  const drawn = () =>
    handlers ? Promise.resolve(handlers) : new Promise<PersonHandlers>((resolve) => waiting.push(resolve));
  return {
    // A question still open when the session ends (the person left) is a no, so nothing waits on it.
    prompt: {
      ask: (request, signal) =>
        untilAborted(signal, { kind: "cancel" }, async () => {
          const key = JSON.stringify([request.tool, request.input]);
          const earlier = replied.get(key);
          if (earlier) return earlier;
          const reply = await (await drawn()).ask(request, signal);
          // Leaving the dialog (Esc) decides nothing for later; an answer does.
          if (reply.kind !== "cancel") replied.set(key, reply);
          return reply;
        }),
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
