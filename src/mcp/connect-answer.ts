import type { Answer, Reason } from "../contracts/decisions.js";

/** How one server's start ended: its tools listed, or why not (with what it said on stderr). */
export type ConnectOutcome =
  | { ok: true; tools: number; transport: string }
  | { ok: false; message: string; stderr: readonly string[]; transport: string; signIn?: boolean };

/** Whether the config made the server required, and where it said so. */
export interface Requirement {
  required: boolean;
  where?: string;
}

/**
 * Seat mcp.connect for one server: "connected · N tools", "failed", or "needs sign-in" (an OAuth
 * server without usable stored credentials: failed, and `bosun mcp login` is the way on). A failed server is left
 * out and the run goes on (code) — unless config made it required, then the answer is config's
 * and the caller stops the run. Its message and stderr tail are the reasons, so `bosun why`
 * shows why a server's tools were missing without the run having to fail.
 */
export function connectAnswer(server: string, outcome: ConnectOutcome, requirement: Requirement): Answer<string> {
  const holder = requirement.required ? "config" : "code";
  const where = requirement.where ? { source: requirement.where, key: `mcp.${server}.required` } : {};
  if (outcome.ok) {
    return {
      holder,
      answer: `connected · ${outcome.tools} tool${outcome.tools === 1 ? "" : "s"}`,
      reasons: [
        { rule: "transport", detail: outcome.transport },
        { rule: "listed", detail: `${outcome.tools} tools`, decisive: true },
      ],
    };
  }
  const reasons: Reason[] = [
    { rule: "transport", detail: outcome.transport },
    // Asked to sign in with no usable stored credentials: a run never opens a browser (sign-in.ts).
    { rule: outcome.signIn ? "sign-in" : "error", detail: outcome.message, decisive: !requirement.required },
  ];
  if (outcome.stderr.length > 0) reasons.push({ rule: "stderr", detail: outcome.stderr.join("\n") });
  reasons.push(
    requirement.required
      ? { rule: "required", detail: "the run stops", ...where, decisive: true }
      : { rule: "not required", detail: "the run goes on without its tools" },
  );
  return { holder, answer: outcome.signIn ? "needs sign-in" : "failed", reasons };
}

/** The one line a person is shown for a failed server, with the end of its stderr. */
export function failureText(server: string, outcome: ConnectOutcome & { ok: false }, required: boolean): string {
  const tail = outcome.stderr.length > 0 ? `\n${outcome.stderr.map((line) => `  ${line}`).join("\n")}` : "";
  const then = required ? "it is required (mcp.<name>.required), so the run stops" : "going on without its tools";
  return `MCP server "${server}" failed (${outcome.message}); ${then.replace("<name>", server)}${tail}`;
}

/**
 * Seat mcp.connect when a running server's tools changed (tools/list_changed): "relisted · N
 * tools", offered from the next step; the names refused in the new set are reasons too.
 */
export function relistAnswer(tools: number, version: number, refused: readonly string[]): Answer<string> {
  return {
    holder: "code",
    answer: `relisted · ${tools} tool${tools === 1 ? "" : "s"}`,
    reasons: [
      {
        rule: "tools/list_changed",
        detail: `the server changed its tools: offered from the next step (version ${version})`,
        decisive: true,
      },
      ...refused.map((why) => ({ rule: "refused", detail: why })),
    ],
  };
}

/**
 * Seat mcp.connect when a running server's prompts changed (prompts/list_changed): "relisted ·
 * N prompts", the person's slash commands from now on (the model is not offered prompts).
 */
export function promptsRelistAnswer(prompts: number): Answer<string> {
  return {
    holder: "code",
    answer: `relisted · ${prompts} prompt${prompts === 1 ? "" : "s"}`,
    reasons: [
      {
        rule: "prompts/list_changed",
        detail: "the server changed its prompts: its slash commands are the new ones from now",
        decisive: true,
      },
    ],
  };
}

/**
 * Seat mcp.connect when the person started a server again (/mcp reconnect): its outcome as at
 * start, but never stopping the session (a required server that fails now leaves its tools
 * missing, said so), with who asked first among the reasons.
 */
export function reconnectAnswer(server: string, outcome: ConnectOutcome, refused: readonly string[]): Answer<string> {
  const answer = connectAnswer(server, outcome, { required: false });
  return {
    holder: "person",
    answer: answer.answer,
    reasons: [
      { rule: "reconnect", detail: "the person asked to start it again (/mcp reconnect)", decisive: true },
      ...answer.reasons.map((reason) => ({ ...reason, decisive: false })),
      ...refused.map((why) => ({ rule: "refused", detail: why })),
    ],
  };
}

/**
 * Seat mcp.connect when the person's /mcp reconnect was refused (a turn runs, a server never
 * approved, none by that name): nothing was started, and the ledger says why — as the answer to
 * the person's request, like a reconnect that ran.
 */
export function reconnectRefusal(rule: string, problem: string): Answer<string> {
  // The person asked; code's rule refused (a turn runs, the server was never let run): code holds it.
  return {
    holder: "code",
    answer: "refused",
    reasons: [
      { rule: "reconnect", detail: "the person asked to start it again (/mcp reconnect)" },
      { rule, detail: problem, decisive: true },
    ],
  };
}
