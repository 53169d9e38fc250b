import type { Answer } from "../../contracts/decisions.js";
import type { QuestionPrompt } from "../../contracts/question.js";
import type { ApprovalRequest } from "./approval.js";
import type { GateDeps } from "./gate.js";
import { CLAUDE_EVENT_NAMES } from "./hook-claude.js";
import { runConfinedHook } from "./hook-confined.js";
import type { Hook, HookRun } from "./hooks.js";
import { hookWhere } from "./prompt-hook.js";

/**
 * Seat `person.notify`, one hook: was it told that bosun waits for the person? Its output means
 * nothing (as Claude Code's Notification): exit 0 is told, anything else failed — recorded, and
 * the ask goes on either way. Pure.
 */
export function judgeNotifyHook(hook: Hook, run: HookRun): Answer<"notified" | "failed"> {
  const where = hookWhere(hook);
  if (run.kind === "exited" && run.code === 0)
    return { holder: "hook", answer: "notified", reasons: [{ rule: "hook ran (exit 0)", decisive: true }, where] };
  const why =
    run.kind === "failed"
      ? run.why
      : `exit code ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ""}`;
  return {
    holder: "code",
    answer: "failed",
    reasons: [{ rule: "hook failed", detail: `${why}; the ask goes on`, decisive: true }, where],
  };
}

/** What bosun waits for the person for, as a notification hook is told it. */
interface Wait {
  message: string;
  /** Claude Code's `notification_type`: permission_prompt, elicitation_dialog. */
  type: "permission_prompt" | "elicitation_dialog";
  tool?: string;
  callId?: string;
}

/** What the person is told they are waited for, for an approval. */
function approvalWait(request: ApprovalRequest): Wait {
  const who = request.from ? ` (for ${request.from.agent})` : "";
  return {
    message: `bosun needs your approval to use ${request.tool}${who}`,
    type: "permission_prompt",
    tool: request.tool,
    callId: request.callId,
  };
}

/**
 * The gate with a person who, each time they are asked, has the `hooks.notification` hooks told
 * first — fire-and-forget: the ask does not wait for them; each is bounded by its timeout and
 * recorded when it ends. Without such hooks or a person, the gate as it was.
 */
export function notifyingDeps(deps: GateDeps): GateDeps {
  const hooks = deps.hooks.filter((h) => h.event === "notification");
  const prompt = deps.prompt;
  if (!prompt || hooks.length === 0) return deps;
  return {
    ...deps,
    prompt: {
      ask: (request, signal) => {
        for (const hook of hooks) void notify(hook, approvalWait(request), deps);
        return prompt.ask(request, signal);
      },
    },
  };
}

/**
 * A question prompt (an MCP server's form) that has the `hooks.notification` hooks of the gate as
 * things stand told before each question, as an approval does (notification_type
 * elicitation_dialog).
 */
export function notifyingQuestions(gate: () => Readonly<GateDeps>, prompt: QuestionPrompt): QuestionPrompt {
  return {
    askQuestion: (question, signal) => {
      const deps = gate();
      const wait: Wait = { message: `bosun needs your input: ${question.from} asks`, type: "elicitation_dialog" };
      for (const hook of deps.hooks.filter((h) => h.event === "notification")) void notify(hook, wait, deps);
      return prompt.askQuestion(question, signal);
    },
  };
}

async function notify(hook: Hook, wait: Wait, deps: Readonly<GateDeps>): Promise<void> {
  const payload = {
    event: "notification",
    session_id: deps.sessionId,
    cwd: deps.authority.cwd,
    workspace: deps.authority.workspace,
    message: wait.message,
    ...(wait.tool ? { tool: wait.tool } : {}),
    ...(wait.callId ? { call_id: wait.callId } : {}),
    hook_event_name: CLAUDE_EVENT_NAMES.notification,
    notification_type: wait.type,
  };
  const verdict = judgeNotifyHook(hook, await runConfinedHook(hook, payload, deps));
  try {
    deps.record({
      seat: "person.notify",
      ...verdict,
      subject: { ...(wait.callId ? { call: wait.callId } : {}), hook: hook.key, event: "notification" },
    });
  } catch {
    // The session may have closed while the hook ran: a notification is not worth a crash.
  }
}
