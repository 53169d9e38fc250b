import { useCallback, useState } from "react";
import type { PersonQuestion, QuestionReply } from "../contracts/question.js";
import type { ApprovalRequest, PersonReply } from "../permission/gate/approval.js";
import type { Loosening } from "../permission/trust/project-trust.js";
import { ApprovalDialog } from "./approval-dialog.js";
import { ListPicker } from "./list-picker.js";
import { QuestionDialog } from "./question-dialog.js";
import type { Choice, SessionEntry } from "./runner.js";
import { SessionPicker } from "./session-picker.js";
import { TrustDialog, type TrustReply } from "./trust-dialog.js";

/**
 * The app's dialogs: a call's approval, the project's trust, a question (an MCP server's form),
 * the session picker and the list
 * picker of /model, /agent and /mode. Each is open until answered; while one is, the input
 * takes no keys.
 */
export function useDialogs() {
  const [approval, setApproval] = useState<{ request: ApprovalRequest; resolve: (r: PersonReply) => void }>();
  const [picking, setPicking] = useState<{ sessions: SessionEntry[]; resolve: (id: string | undefined) => void }>();
  const [trust, setTrust] = useState<{ loosening: Loosening; resolve: (answer: TrustReply) => void }>();
  const [questioning, setQuestioning] = useState<{
    question: PersonQuestion;
    resolve: (reply: QuestionReply) => void;
  }>();
  const [choosing, setChoosing] = useState<{
    title: string;
    choices: Choice[];
    resolve: (value: string | undefined) => void;
  }>();
  const ask = useCallback(
    (request: ApprovalRequest, signal: AbortSignal) =>
      openDialog<PersonReply>(
        (resolve) => setApproval({ request, resolve }),
        () => setApproval(undefined),
        signal,
        { kind: "cancel" },
      ),
    [],
  );
  const askTrust = useCallback(
    (loosening: Loosening, signal: AbortSignal) =>
      openDialog<TrustReply>(
        (resolve) => setTrust({ loosening, resolve }),
        () => setTrust(undefined),
        signal,
        "no",
      ),
    [],
  );
  const askQuestion = useCallback(
    (question: PersonQuestion, signal: AbortSignal) =>
      openDialog<QuestionReply>(
        (resolve) => setQuestioning({ question, resolve }),
        () => setQuestioning(undefined),
        signal,
        { action: "cancel" },
      ),
    [],
  );
  /** The person picks one of these sessions; undefined: they kept this one. */
  const pickSession = async (sessions: SessionEntry[]) => {
    const id = await new Promise<string | undefined>((resolve) => setPicking({ sessions, resolve }));
    setPicking(undefined);
    return id;
  };
  /** The person picks one of these choices; undefined: they left the picker. */
  const choose = async (title: string, choices: Choice[]) => {
    const value = await new Promise<string | undefined>((resolve) => setChoosing({ title, choices, resolve }));
    setChoosing(undefined);
    return value;
  };
  const open =
    approval !== undefined ||
    picking !== undefined ||
    trust !== undefined ||
    choosing !== undefined ||
    questioning !== undefined;
  return {
    approval,
    picking,
    trust,
    choosing,
    questioning,
    open,
    ask,
    askTrust,
    askQuestion,
    pickSession,
    choose,
    closeApproval: () => setApproval(undefined),
    closeTrust: () => setTrust(undefined),
    closeQuestion: () => setQuestioning(undefined),
  };
}

export type DialogState = ReturnType<typeof useDialogs>;

/** The dialog open now, if any (at most one is: only one thing runs at a time). */
export function Dialogs({ dialogs }: { dialogs: DialogState }) {
  const { approval, picking, trust, choosing, questioning } = dialogs;
  return (
    <>
      {approval ? (
        <ApprovalDialog
          request={approval.request}
          onAnswer={(reply) => {
            dialogs.closeApproval();
            approval.resolve(reply);
          }}
        />
      ) : null}
      {picking ? <SessionPicker sessions={picking.sessions} onPick={picking.resolve} /> : null}
      {trust ? (
        <TrustDialog
          loosening={trust.loosening}
          onAnswer={(answer) => {
            dialogs.closeTrust();
            trust.resolve(answer);
          }}
        />
      ) : null}
      {questioning ? (
        <QuestionDialog
          question={questioning.question}
          onAnswer={(reply) => {
            dialogs.closeQuestion();
            questioning.resolve(reply);
          }}
        />
      ) : null}
      {choosing ? <ListPicker title={choosing.title} choices={choosing.choices} onPick={choosing.resolve} /> : null}
    </>
  );
}

/** Opens a dialog until it is answered, or until `signal` aborts: then it closes, answered `gone`. */
function openDialog<A>(
  show: (resolve: (answer: A) => void) => void,
  hide: () => void,
  signal: AbortSignal,
  gone: A,
): Promise<A> {
  return new Promise<A>((resolve) => {
    if (signal.aborted) return resolve(gone);
    const abort = () => {
      hide();
      resolve(gone);
    };
    signal.addEventListener("abort", abort, { once: true });
    show((answer) => {
      signal.removeEventListener("abort", abort);
      resolve(answer);
    });
  });
}
