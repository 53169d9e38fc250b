import { type AgentContext, methods } from "@agentclientprotocol/sdk";
import type { QuestionPrompt, QuestionReply } from "../contracts/question.js";
import { formMessage, formOf, questionReplyOf } from "./question.js";

/**
 * The person's questions (the question tool's, an MCP server's forms) as the editor's form
 * elicitation, for an editor that offers forms: given only then, so an editor without them
 * leaves the session with nobody to ask (the question tool says so; a form is declined by code).
 * `sessionId` is read when a question comes: until the session is open there is none, and a
 * question then has nobody to go to (cancelled).
 */
export function editorQuestions(client: AgentContext, sessionId: () => string | undefined): QuestionPrompt {
  return {
    async askQuestion(question, signal): Promise<QuestionReply> {
      const id = sessionId();
      if (!id) return { action: "cancel" };
      try {
        const response = await client.request(
          methods.client.elicitation.create,
          { mode: "form", sessionId: id, message: formMessage(question), requestedSchema: formOf(question) },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        );
        return questionReplyOf(question, response);
      } catch {
        return { action: "cancel" };
      }
    },
  };
}
