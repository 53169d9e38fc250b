import type { QuestionPrompt } from "../contracts/question.js";
import type { TurnOutcome } from "../loop/turn.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { InteractiveRunner } from "../tui/runner.js";
import type { Status } from "../tui/status-line.js";
import type { ServerClient, StreamData } from "./attach/client.js";
import { answerOf, askRequestOf, outcomeOf, runEventOf } from "./attach/events.js";

type TurnIo = Parameters<InteractiveRunner["turn"]>[1];

/**
 * The TUI driving a session a server holds (`bosun attach`): a message is a POST, the turn's
 * events come from the session's event stream, and each ask or question is put to the person in
 * the TUI's dialogs and answered back through the server, where it is recorded as theirs. What
 * runs on this machine at the terminal (`!cmd`, /compact, switching model or session) is not
 * offered: it would run where the server runs.
 */
export function attachRunner(input: {
  client: ServerClient;
  session: string;
  question: QuestionPrompt;
  signal: AbortSignal;
  onLost: (why: string) => void;
}): InteractiveRunner {
  const { client, session } = input;
  let status: Status = { model: "…", agent: "…", mode: "…" };
  let tokens = 0;
  /** The turn under way here: its io, the event id before its first, and how it ends. */
  let current: { io: TurnIo; after: number; resolve: (outcome: TurnOutcome) => void } | undefined;
  /** Events that came while a message was being sent: the turn's first may beat the POST's answer. */
  let held: StreamData[] | undefined;

  const ask = async (data: StreamData, prompt: ApprovalPrompt, signal: AbortSignal) => {
    const request = askRequestOf(data);
    const reply = await prompt.ask(request, signal);
    await client.request("POST", `/sessions/${session}/asks/${String(data.ask)}`, answerOf(reply, request));
    if (reply.kind === "cancel") await client.request("POST", `/sessions/${session}/cancel`);
  };
  const answerQuestion = async (data: StreamData, signal: AbortSignal) => {
    const reply = await input.question.askQuestion(
      { from: String(data.from), message: String(data.message), fields: (data.fields as never) ?? [] },
      signal,
    );
    const body = reply.action === "accept" ? { action: "accept", values: reply.values } : { action: "decline" };
    await client.request("POST", `/sessions/${session}/questions/${String(data.question)}`, body);
  };

  const onEvent = (data: StreamData) => {
    if (data.type === "session") {
      status = { model: String(data.model), agent: String(data.agent), mode: String(data.mode) };
      return;
    }
    if (data.type === "usage") tokens += Number((data.usage as { input?: number })?.input ?? 0);
    if (!current && held) {
      held.push(data);
      return;
    }
    const turn = current;
    // Events of turns before this one (the stream's backlog) are history, not this turn's.
    if (!turn || (data.seq ?? 0) <= turn.after) return;
    if (data.type === "ask") {
      void ask(data, turn.io.prompt, turn.io.signal).catch((error: unknown) => turn.io.emit(failure(error)));
      return;
    }
    if (data.type === "question") {
      void answerQuestion(data, turn.io.signal).catch((error: unknown) => turn.io.emit(failure(error)));
      return;
    }
    if (data.type === "done") {
      current = undefined;
      turn.resolve(outcomeOf(data));
      return;
    }
    const event = runEventOf(data);
    if (event) turn.io.emit(event);
  };
  const following = client.follow(session, onEvent, input.signal, {
    onLost: (why) => {
      current?.resolve({ status: "failed", steps: 0, denied: 0, message: `lost the server's event stream: ${why}` });
      current = undefined;
      input.onLost(why);
    },
  });

  return {
    status: () => status,
    tokens: () => tokens,
    async turn(text, io) {
      held = [];
      let sent: Awaited<ReturnType<ServerClient["request"]>>;
      try {
        sent = await client.request("POST", `/sessions/${session}/messages`, { text });
      } catch (error) {
        held = undefined;
        return { status: "failed", steps: 0, denied: 0, message: `the server: ${(error as Error).message}` };
      }
      const body = sent.body as { after?: number; error?: string };
      if (sent.status !== 202) {
        held = undefined;
        return { status: "failed", steps: 0, denied: 0, message: body.error ?? `the server answered ${sent.status}` };
      }
      const cancel = () => void client.request("POST", `/sessions/${session}/cancel`).catch(() => undefined);
      io.signal.addEventListener("abort", cancel, { once: true });
      try {
        return await new Promise<TurnOutcome>((resolve) => {
          current = { io, after: body.after ?? 0, resolve };
          const early = held ?? [];
          held = undefined;
          for (const data of early) onEvent(data);
        });
      } finally {
        io.signal.removeEventListener("abort", cancel);
      }
    },
    async bang() {
      return { output: "`!` commands run where bosun runs the session: not through bosun attach.", exitCode: null };
    },
    // `/why [--all] [seat glob]`: the server renders its ledger as `bosun why` would, to this width.
    async why(args, view) {
      const words = (args ?? "").split(/\s+/).filter(Boolean);
      const seat = words.filter((w) => w !== "--all").join(" ");
      const query = new URLSearchParams({
        width: String(Math.max(40, Math.min(400, view.width))),
        color: String(view.color),
        all: String(words.includes("--all")),
        ...(seat ? { seat } : {}),
      });
      try {
        const text = await client.text(`/sessions/${session}/ledger?${query}`);
        return text.replace(/\n$/, "");
      } catch (error) {
        return `/why: the server: ${(error as Error).message}`;
      }
    },
    async compact() {
      return "/compact runs where the session is held: not through bosun attach yet.";
    },
    async close() {
      await following.catch(() => undefined);
    },
  };
}

function failure(error: unknown) {
  return { type: "error" as const, message: `the server: ${error instanceof Error ? error.message : String(error)}` };
}
