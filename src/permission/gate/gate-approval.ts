import { readFile } from "node:fs/promises";
import type { CallDescription } from "../../contracts/requests.js";
import type { FileAccess } from "../../contracts/tools.js";
import { alwaysOffer } from "../rules/always.js";
import { isInside } from "../rules/requests.js";
import { allowHint } from "./allow-hint.js";
import { approvalFromReply, decideApprovalWithoutPerson, deniedByPerson, nobodyCanApprove } from "./approval.js";
import type { PermissionAnswer } from "./authorize.js";
import type { GateCall, GateDeps, GateResult } from "./gate.js";

/**
 * The gate's seat call.approval, for a call whose answer is still ask: the person is asked when
 * one is attached (and must see it), otherwise code answers for them (--auto, or nobody). Returns
 * the refusal when the call may not run, undefined when it may.
 */
export async function approve(
  call: GateCall,
  step: number,
  deps: GateDeps,
  description: CallDescription,
  permission: PermissionAnswer,
  askedByRules: boolean,
): Promise<GateResult | undefined> {
  const subject = { step, call: call.id };
  // --auto answers for the person, except for a call bosun cannot analyse, or one a deny might
  // cover that no mask keeps (a path known only when it runs): those they must see.
  const mustSee =
    description.problem !== undefined
      ? `bosun cannot analyse this call (${description.problem})`
      : permission.outcomes.find((o) => o.personOnly && o.effect === "ask")?.personOnly;
  if (deps.prompt && (!deps.auto || mustSee !== undefined)) {
    // A call bound to fail is not put to the person: their yes would only be wasted. Only then —
    // with nobody to ask, the rules' refusal stands as it is, and --auto needs no one's time.
    const unready = call.unready?.();
    if (unready !== undefined) {
      deps.record({
        seat: "call.approval",
        holder: "code",
        answer: "not asked",
        reasons: [{ rule: "the call cannot succeed as things stand", detail: unready, decisive: true }],
        subject,
      });
      const sentence = /[.!?]$/.test(unready) ? unready : `${unready}.`;
      return { run: false, output: `Not run: ${sentence}`, summary: `${call.tool.name}: not run (${unready})` };
    }
    const offer = alwaysOffer(permission.outcomes);
    const preview = await call.tool
      .preview?.(
        call.input,
        { cwd: deps.authority.cwd, workspace: deps.authority.workspace },
        {
          ...(call.access ? { access: previewAccess(call.access, deps.authority.workspace) } : {}),
          signal: deps.signal,
        },
      )
      .catch(() => undefined);
    const reply = await deps.prompt.ask(
      {
        tool: call.tool.name,
        callId: call.id,
        input: call.input,
        outcomes: permission.outcomes,
        ...(description.problem !== undefined ? { problem: description.problem } : {}),
        ...(preview ? { preview } : {}),
        always: offer,
      },
      deps.signal,
    );
    const answer = approvalFromReply(reply);
    if (reply.kind === "always") deps.saveAlways(reply.option.rules, call.tool.name);
    deps.record({ seat: "call.approval", ...answer, subject });
    if (reply.kind === "deny") {
      // The person's no is a denial like any other: the run's `denied`, exit code and last line say so.
      return {
        run: false,
        output: deniedByPerson(reply.message),
        summary: `${call.tool.name}: denied by the user`,
        unapproved: true,
      };
    }
    if (reply.kind === "unanswered") {
      return {
        run: false,
        output: `Denied: this call needed approval and nobody answered (${reply.why}). Do not retry it; finish with what you can do without it, and say what needs approval.`,
        summary: `${call.tool.name}: denied (nobody answered)`,
        unapproved: true,
      };
    }
    if (reply.kind === "cancel") {
      return {
        run: false,
        output: deniedByPerson(),
        summary: `${call.tool.name}: denied (prompt left)`,
        stopTurn: true,
      };
    }
    return undefined;
  }
  // The narrow fix is named only when the rules alone asked: a hook's ask, or a command that
  // cannot be confined, would ask again whatever --allow says.
  const narrow = !deps.auto && askedByRules ? allowHint(description, permission.outcomes, deps.authority) : undefined;
  const answer = decideApprovalWithoutPerson({
    auto: deps.auto,
    tool: call.tool.name,
    ...(mustSee !== undefined ? { undescribed: mustSee } : {}),
    ...(narrow ? { narrow } : {}),
  });
  deps.record({ seat: "call.approval", ...answer, subject });
  if (answer.answer === "deny") {
    return {
      run: false,
      output: nobodyCanApprove(narrow),
      summary: `${call.tool.name}: denied (nobody to approve)`,
      unapproved: true,
    };
  }
  return undefined;
}

/**
 * The editor's buffers for an ask's diff, for the workspace's files only: the call is not
 * approved yet, and a path outside the workspace is sent to the editor only once it is (its
 * diff is of the disk, as at the terminal).
 */
function previewAccess(access: FileAccess, workspace: string): FileAccess {
  const read = access.read;
  if (!read) return access;
  return {
    ...access,
    read: (path, signal) => (isInside(path, workspace) ? read(path, signal) : readFile(path, "utf8")),
  };
}
