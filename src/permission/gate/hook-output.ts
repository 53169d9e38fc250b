import { CLAUDE_EVENT_NAMES } from "./hook-claude.js";
import type { HookEvent } from "./hooks.js";

/**
 * What a hook printed on stdout, read into one shape — bosun's own (`{"decision", "reason"}`,
 * post_tool's `{"context"}`) and Claude Code's, from its hooks reference
 * (docs.anthropic.com/en/docs/claude-code/hooks, "Advanced: JSON Output"):
 *
 * - common fields: `continue` (false: stop), `stopReason`, `suppressOutput`, `systemMessage`;
 * - PreToolUse: `hookSpecificOutput.permissionDecision` `allow`/`deny`/`ask` with
 *   `permissionDecisionReason` (and `updatedInput`, `additionalContext`); the older top-level
 *   `decision` `approve`/`block` ("map to allow and deny") with `reason`;
 * - PostToolUse: `decision: "block"` with `reason` (goes to the model), and
 *   `hookSpecificOutput.additionalContext`;
 * - Stop: `decision: "block"` with `reason` (the agent goes back to work with it); no
 *   hookSpecificOutput fields beyond `hookEventName`;
 * - UserPromptSubmit: `decision: "block"` with `reason` (for the person; the prompt is not
 *   taken), and `hookSpecificOutput.additionalContext` (for the model);
 * - SessionStart: `hookSpecificOutput.additionalContext`; it cannot block;
 * - PreCompact: informational; here its stdout (or `{"context"}`) adds to the summary's instructions.
 *
 * Pure. JSON that is not in this shape — a key bosun does not know, a value of the wrong type,
 * a decision not in the list, a `hookEventName` of another event, before a call a JSON object
 * among lines of text — is not read as "no objection": it is invalid, and the caller treats it
 * as a failed hook.
 */
export type HookStdout =
  | { kind: "text"; text: string }
  | { kind: "invalid"; why: string }
  | { kind: "json"; output: HookOutput };

export interface HookOutput {
  /** Every field that says something about the call, as written: `decision "block"`, ... */
  decisions: Array<{ field: string; value: "deny" | "ask" | "pass"; written: string }>;
  /** `permissionDecisionReason`, else `reason`. */
  reason?: string;
  /** `continue: false`: Claude Code stops processing; here the turn stops. */
  stop?: { reason?: string };
  /** `updatedInput`: the hook would run a changed call. */
  updatedInput?: Record<string, unknown>;
  /** Text for the model: bosun's `context`, `additionalContext`, a post_tool `block`'s reason. */
  context: string[];
  /** `systemMessage`: for the person, kept on record. */
  systemMessage?: string;
}

const PRE_DECISIONS: Record<string, "deny" | "ask" | "pass"> = {
  deny: "deny",
  block: "deny",
  ask: "ask",
  allow: "pass",
  approve: "pass",
};
const PERMISSION_DECISIONS: Record<string, "deny" | "ask" | "pass"> = { deny: "deny", ask: "ask", allow: "pass" };

/** Events whose hooks only tell or add: a decision from them is no shape bosun knows. */
const CANNOT_BLOCK: readonly HookEvent[] = ["session_start", "pre_compact", "notification"];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

export function readHookStdout(stdout: string, event: HookEvent): HookStdout {
  const text = stdout.trim();
  if (text.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { kind: "invalid", why: "its stdout starts like JSON but does not parse" };
    }
    if (!isObject(value)) return { kind: "invalid", why: "its stdout is JSON but not an object" };
    return readObject(value, event);
  }
  // `[lint] 2 warnings` is text; `["deny"]` is JSON, and no shape bosun knows.
  if (text.startsWith("[")) {
    try {
      JSON.parse(text);
      return { kind: "invalid", why: "its stdout is JSON but not an object" };
    } catch {
      // Plain text.
    }
  }
  // Before a call, text around a JSON answer (`echo checking; jq -n '{…deny…}'`) is not read as
  // "no objection": a line that is a JSON object makes the output one bosun cannot read.
  if (event === "pre_tool" && text.split("\n").some((line) => isJsonObject(line.trim())))
    return { kind: "invalid", why: "its stdout mixes text and a JSON object (print the JSON alone)" };
  return { kind: "text", text };
}

function isJsonObject(line: string): boolean {
  if (!line.startsWith("{")) return false;
  try {
    return isObject(JSON.parse(line));
  } catch {
    return false;
  }
}

function readObject(value: Record<string, unknown>, event: HookEvent): HookStdout {
  const output: HookOutput = { decisions: [], context: [] };
  const problems: string[] = [];
  const string = (where: string, v: unknown): string | undefined => {
    if (typeof v === "string") return v;
    problems.push(`${where} must be a string, not ${JSON.stringify(v)}`);
    return undefined;
  };
  const text = (v: string | undefined) => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

  for (const [key, v] of Object.entries(value)) {
    switch (key) {
      case "decision": {
        const written = string("decision", v);
        if (written === undefined) break;
        // After the call only a block means something (its reason goes to the model).
        const meaning =
          event === "pre_tool"
            ? PRE_DECISIONS[written]
            : written === "block" && !CANNOT_BLOCK.includes(event)
              ? "deny"
              : undefined;
        if (meaning === undefined)
          problems.push(
            `unknown decision ${JSON.stringify(written)} (expected ${event === "pre_tool" ? "deny, block, ask, allow or approve" : CANNOT_BLOCK.includes(event) ? `none: a ${event} hook cannot block` : "block"})`,
          );
        else output.decisions.push({ field: "decision", value: meaning, written });
        break;
      }
      case "reason": {
        const reason = text(string("reason", v));
        if (reason !== undefined) output.reason ??= reason;
        break;
      }
      case "context": {
        if (!["post_tool", "user_prompt_submit", "session_start", "pre_compact"].includes(event)) {
          problems.push(`unknown key "context" (a ${event} hook adds no context)`);
          break;
        }
        const context = text(string("context", v));
        if (context !== undefined) output.context.push(context);
        break;
      }
      case "continue":
        if (typeof v !== "boolean") problems.push(`continue must be true or false, not ${JSON.stringify(v)}`);
        else if (!v) output.stop = { ...output.stop };
        break;
      case "stopReason": {
        const reason = text(string("stopReason", v));
        if (reason !== undefined) output.stop = { ...output.stop, reason };
        break;
      }
      case "suppressOutput":
        if (typeof v !== "boolean") problems.push(`suppressOutput must be true or false, not ${JSON.stringify(v)}`);
        break;
      case "systemMessage": {
        const message = text(string("systemMessage", v));
        if (message !== undefined) output.systemMessage = message;
        break;
      }
      case "hookSpecificOutput":
        if (!isObject(v)) problems.push(`hookSpecificOutput must be an object, not ${JSON.stringify(v)}`);
        else readSpecific(v, event, output, problems, string, text);
        break;
      default:
        problems.push(`unknown key ${JSON.stringify(key)}`);
    }
  }
  // `stopReason` alone does not stop anything: only `continue: false` does.
  if (output.stop && value.continue !== false) delete output.stop;
  if (problems.length > 0)
    return { kind: "invalid", why: `its JSON is not a shape bosun knows: ${problems.join("; ")}` };
  return { kind: "json", output };
}

function readSpecific(
  value: Record<string, unknown>,
  event: HookEvent,
  output: HookOutput,
  problems: string[],
  string: (where: string, v: unknown) => string | undefined,
  text: (v: string | undefined) => string | undefined,
): void {
  const expected = CLAUDE_EVENT_NAMES[event];
  for (const [key, v] of Object.entries(value)) {
    const where = `hookSpecificOutput.${key}`;
    if (key === "hookEventName") {
      const name = string(where, v);
      if (name !== undefined && name !== expected)
        problems.push(`${where} is ${JSON.stringify(name)}, but this is a ${expected} hook (${event})`);
    } else if (key === "additionalContext" && event !== "stop" && event !== "subagent_stop") {
      const context = text(string(where, v));
      if (context !== undefined) output.context.push(context);
    } else if (event === "pre_tool" && key === "permissionDecision") {
      const written = string(where, v);
      if (written === undefined) continue;
      const meaning = PERMISSION_DECISIONS[written];
      if (meaning === undefined)
        problems.push(`unknown ${where} ${JSON.stringify(written)} (expected allow, deny or ask)`);
      else output.decisions.push({ field: where, value: meaning, written });
    } else if (event === "pre_tool" && key === "permissionDecisionReason") {
      const reason = text(string(where, v));
      // The reason that goes with the permission decision wins over the older `reason`.
      if (reason !== undefined) output.reason = reason;
    } else if (event === "pre_tool" && key === "updatedInput") {
      if (isObject(v)) output.updatedInput = v;
      else problems.push(`${where} must be an object, not ${JSON.stringify(v)}`);
    } else {
      problems.push(`unknown key ${JSON.stringify(where)}${event === "pre_tool" ? "" : ` for a ${event} hook`}`);
    }
  }
}

/** A non-zero exit, with the start of what the hook said on stderr. */
export function exitProblem(code: number | null, stderr: string): string {
  const said = stderr.trim();
  return `exit code ${code}${said ? `: ${said.slice(0, 500)}` : ""}`;
}
