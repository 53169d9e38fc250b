import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Decision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import { decideElicitation, questionFromElicitation } from "./elicit.js";

/** How long a server's form may wait for the person before it is given up (cancelled). */
export const ELICIT_TIMEOUT_MS = 10 * 60_000;

/** The client's capabilities: forms only (a URL elicitation would send the person to a page bosun cannot vouch for). */
export const CLIENT_CAPABILITIES = { elicitation: { form: {} } } as const;

/**
 * Answers a server's `elicitation/create` on `client`: the form to the person (the face's
 * question prompt), or declined with nobody there; each answer recorded (seat mcp.elicit) with
 * the fields named, never their values.
 */
export function answerElicitations(
  client: Client,
  server: string,
  io: { question?: QuestionPrompt; nobody?: string; record?: (decision: Decision) => void },
): void {
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const asked = questionFromElicitation(server, request.params);
    let reply: Awaited<ReturnType<QuestionPrompt["askQuestion"]>> | undefined;
    if (asked.ok && io.question) {
      const signal = AbortSignal.any([extra.signal, AbortSignal.timeout(ELICIT_TIMEOUT_MS)]);
      reply = await io.question.askQuestion(asked.question, signal).catch(() => ({ action: "cancel" as const }));
    }
    const decided = decideElicitation({
      server,
      asked,
      ...(reply ? { reply } : {}),
      nobody: io.nobody ?? "no person is at this session (not a terminal, or a background run)",
    });
    const { result, ...answer } = decided;
    io.record?.({ seat: "mcp.elicit", subject: { server }, ...answer });
    return result;
  });
}
