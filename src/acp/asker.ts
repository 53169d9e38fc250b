import { type AgentContext, methods } from "@agentclientprotocol/sdk";
import type { ApprovalPrompt, PersonReply } from "../permission/gate/approval.js";
import { askText, permissionOptions, replyOf, VIA_EDITOR } from "./permission.js";
import { textContent, toolCallView } from "./tool-call.js";

/**
 * The person, through the editor: every ask of a session's turn goes to session/request_permission
 * and waits for its answer. The turn cancelled while it waits is the person leaving the prompt;
 * an editor that cannot answer (it disconnected, the request failed) is nobody's answer: a deny
 * by code, and the turn goes on without the call.
 */
export function editorPrompt(
  client: AgentContext,
  sessionId: string,
  cwd: string,
  /** Aborted when the editor is gone (the connection closed): then nobody is left to answer. */
  gone: AbortSignal,
  /** What a file holds before a write replaces it (null: none; undefined: not known), for the ask's diff. */
  before: (path: string, signal: AbortSignal) => Promise<string | null | undefined>,
): ApprovalPrompt {
  return {
    async ask(request, signal): Promise<PersonReply> {
      const path = request.input.path;
      const old = request.tool === "write" && typeof path === "string" ? await before(path, signal) : undefined;
      const view = toolCallView(request.tool, request.input, cwd, old);
      const text = askText(request);
      const title = request.from ? `${request.from.agent}: ${view.title}` : view.title;
      try {
        const answer = await client.request(
          methods.client.session.requestPermission,
          {
            sessionId,
            toolCall: {
              toolCallId: request.callId,
              ...view,
              title,
              status: "pending",
              content: [...(view.content ?? []), ...(text ? [textContent(text)] : [])],
            },
            options: permissionOptions(request),
          },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        );
        return replyOf(request, answer.outcome);
      } catch (error) {
        if (gone.aborted) return { kind: "unanswered", why: "the editor disconnected", via: VIA_EDITOR };
        if (signal.aborted) return { kind: "cancel", via: VIA_EDITOR };
        const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
        return { kind: "unanswered", why: `the editor did not answer (${why})`, via: VIA_EDITOR };
      }
    },
  };
}
