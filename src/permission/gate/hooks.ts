import { spawn } from "node:child_process";
import { ENTRY_DEFAULTS } from "../../config/defaults.js";
import type { LoadedConfig } from "../../config/load.js";
import type { Confinement } from "../../contracts/confinement.js";
import type { Answer, Holder, Reason } from "../../contracts/decisions.js";
import { toolEnvironment } from "../../util/withheld-env.js";
import type { RepositoryGrant } from "./confine.js";
import { hookMatches } from "./hook-claude.js";
import { readHookStdout } from "./hook-output.js";
import { bwrapProgram, confinedArgv } from "./sandbox.js";

/**
 * Around a call (pre_tool, post_tool: seat call.hook), at the turn's end (stop: seat
 * turn.stop_hook), and before the person's message is taken (user_prompt_submit: seat
 * turn.prompt_hook), when a session opens (session_start: seat session.start_hook), and when bosun
 * waits for the person (notification: seat person.notify); a delegate's end (subagent_stop: seat
 * turn.stop_hook of the delegate's turn); before a compaction (pre_compact: seat compaction.hook).
 */
export type HookEvent =
  | "pre_tool"
  | "post_tool"
  | "stop"
  | "subagent_stop"
  | "user_prompt_submit"
  | "session_start"
  | "notification"
  | "pre_compact";

/** Every event, in the order a layer's hooks are read. */
export const HOOK_EVENTS: readonly HookEvent[] = [
  "pre_tool",
  "post_tool",
  "stop",
  "subagent_stop",
  "user_prompt_submit",
  "session_start",
  "notification",
  "pre_compact",
];

/** One configured hook, with where it was written. */
export interface Hook {
  event: HookEvent;
  command: string;
  tools?: string[];
  timeoutMs: number;
  onError: "deny" | "allow";
  /** Set when `on_error` was written; else the default (deny) is code's. */
  onErrorWritten: boolean;
  /** Written in a repository's bosun.json: it runs only once judged (seat project.command). */
  fromProject: boolean;
  /** A repository's hook that project.command let run: who let it, which sets its confinement. */
  grant?: RepositoryGrant;
  source: string;
  key: string;
  line?: number;
}

/** Most characters of a hook's stdout or stderr kept. */
const HOOK_OUTPUT_LIMIT = 64_000;

/**
 * Every layer's hooks, lowest layer first. Hooks are not merged like other keys: a project's
 * `hooks.pre_tool` adds to the user's global ones, it cannot replace (and so silently drop) them.
 */
export function hooksFromConfig(config: LoadedConfig): Hook[] {
  const hooks: Hook[] = [];
  for (const doc of config.documents) {
    for (const event of HOOK_EVENTS) {
      (doc.data.hooks?.[event] ?? []).forEach((hook, index) => {
        const line = doc.lineOf?.(["hooks", event, index]);
        hooks.push({
          event,
          command: hook.command,
          ...(hook.tools ? { tools: hook.tools } : {}),
          timeoutMs: hook.timeout_ms ?? ENTRY_DEFAULTS.hook.timeout_ms,
          onError: hook.on_error ?? ENTRY_DEFAULTS.hook.on_error,
          onErrorWritten: hook.on_error !== undefined,
          fromProject: doc.layer === "project",
          source: doc.file ?? doc.source,
          key: `hooks.${event}[${index}]`,
          ...(line ? { line } : {}),
        });
      });
    }
  }
  return hooks;
}

/** The hooks of an event whose `tools` name this tool (hook-claude.ts `hookMatches`); no `tools`: every tool. */
export function hooksFor(hooks: readonly Hook[], event: HookEvent, tool: string): Hook[] {
  return hooks.filter((h) => h.event === event && (h.tools === undefined || h.tools.some((p) => hookMatches(p, tool))));
}

/** How a hook run ended. */
export type HookRun =
  | { kind: "exited"; code: number; stdout: string; stderr: string }
  | { kind: "failed"; why: string };

/**
 * Runs a hook: `bash -c command` in the workspace, in its own process group, `payload` as JSON on
 * stdin, the tools' environment (no keys); a repository's hook inside its confinement. A hook that overruns its timeout is killed (its whole
 * group) and has failed.
 */
export function runHook(
  hook: Hook,
  payload: unknown,
  cwd: string,
  signal: AbortSignal,
  /** A repository's hook runs confined (seat exec.sandbox, decided when project.command let it run). */
  confine?: Confinement,
): Promise<HookRun> {
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    const argv = ["bash", "-c", hook.command];
    const [program, ...args] = confine ? [bwrapProgram(), ...confinedArgv(confine, cwd, argv)] : argv;
    try {
      child = spawn(program as string, args, {
        cwd,
        // CLAUDE_PROJECT_DIR: hooks written for Claude Code name their scripts under it.
        env: { ...toolEnvironment(), BOSUN_HOOK: hook.event, CLAUDE_PROJECT_DIR: cwd },
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({ kind: "failed", why: `could not start: ${(error as Error).message}` });
      return;
    }
    let stdout = "";
    let stderr = "";
    let settled = false;
    const finish = (run: HookRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(run);
    };
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      kill();
      finish({ kind: "failed", why: `timed out after ${hook.timeoutMs} ms` });
    }, hook.timeoutMs);
    const onAbort = () => {
      kill();
      finish({ kind: "failed", why: "cancelled" });
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < HOOK_OUTPUT_LIMIT) stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < HOOK_OUTPUT_LIMIT) stderr += chunk;
    });
    child.on("error", (error) => finish({ kind: "failed", why: `could not start: ${error.message}` }));
    child.on("close", (code, killedBy) => {
      if (code === null) finish({ kind: "failed", why: `killed by ${killedBy ?? "a signal"}` });
      else
        finish({
          kind: "exited",
          code,
          stdout: stdout.slice(0, HOOK_OUTPUT_LIMIT),
          stderr: stderr.slice(0, HOOK_OUTPUT_LIMIT),
        });
    });
    // A hook that does not read its stdin must not fail the write.
    child.stdin?.on("error", () => {});
    child.stdin?.end(JSON.stringify(payload));
  });
}

export type PreHookAnswer = "deny" | "ask" | "no-objection" | "stop";

/**
 * Seat `call.hook` before a call: what one pre_tool hook's run says (its stdout read by
 * hook-output.ts, bosun's own shape or Claude Code's). Exit 2 denies with stderr as the reason;
 * a decision `deny`/`block` (top-level `decision` or `hookSpecificOutput.permissionDecision`)
 * denies with its reason; `ask` makes the call ask; `allow`/`approve`, plain text or nothing is
 * no objection — a hook can tighten, never loosen. Where fields disagree the strictest holds.
 * `continue: false` stops: the call does not run and the turn ends (its `stopReason` said).
 * `updatedInput` denies: bosun runs only the call it judged, never one a hook rewrote. A hook
 * that crashes, exits with another code, times out or prints JSON in no shape bosun knows has
 * failed: its `on_error` answers, deny unless the config says allow.
 */
export function judgePreHook(hook: Hook, run: HookRun): Answer<PreHookAnswer> & { message?: string } {
  const where = hookReason(hook);
  const failed = (why: string): Answer<PreHookAnswer> & { message?: string } => {
    const holder: Holder = hook.onErrorWritten ? "config" : "code";
    const answer: PreHookAnswer = hook.onError === "allow" ? "no-objection" : "deny";
    return {
      holder,
      answer,
      reasons: [
        {
          rule: "hook failed",
          detail: `${why}; on_error ${hook.onError}${hook.onErrorWritten ? "" : " (the default)"} → ${answer}`,
          decisive: true,
          ...(hook.onErrorWritten ? { source: hook.source, key: `${hook.key}.on_error` } : {}),
        },
        where,
      ],
      ...(answer === "deny" ? { message: `a hook (${hook.key}) failed: ${why}` } : {}),
    };
  };
  if (run.kind === "failed") return failed(run.why);
  if (run.code === 2) {
    const reason = run.stderr.trim() || "exit code 2";
    return {
      holder: "hook",
      answer: "deny",
      reasons: [{ rule: "hook denied (exit 2)", detail: reason, decisive: true }, where],
      message: reason,
    };
  }
  if (run.code !== 0)
    return failed(`exit code ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ""}`);
  const read = readHookStdout(run.stdout, "pre_tool");
  if (read.kind === "invalid") return failed(read.why);
  if (read.kind === "text") {
    return {
      holder: "hook",
      answer: "no-objection",
      reasons: [{ rule: "hook passed (exit 0)", decisive: true }, where],
    };
  }
  const out = read.output;
  const said = (value: "deny" | "ask" | "pass") =>
    out.decisions
      .filter((d) => d.value === value)
      .map((d) => `${d.field} "${d.written}"`)
      .join(", ");
  // What the hook printed beside its answer, for the record: nothing of it loosens anything.
  const notes: Reason[] = [
    ...(out.systemMessage ? [{ rule: "hook systemMessage", detail: out.systemMessage }] : []),
    ...out.context.map((text) => ({
      rule: "hook additionalContext",
      detail: `${text.slice(0, 500)} (not shown to the model: bosun adds hook context after a call, not before)`,
    })),
  ];
  const answer = (
    value: PreHookAnswer,
    rule: string,
    detail: string,
    message?: string,
  ): Answer<PreHookAnswer> & { message?: string } => ({
    holder: "hook",
    answer: value,
    reasons: [{ rule, detail, decisive: true }, where, ...notes],
    ...(message !== undefined ? { message } : {}),
  });
  if (out.stop) {
    const why = out.stop.reason ?? "no reason given";
    return answer("stop", 'hook said "continue": false', `${why}; the call does not run and the turn stops`, why);
  }
  if (said("deny")) {
    const why = out.reason ?? "no reason given";
    return answer("deny", `hook ${said("deny")}`, why, out.reason ?? "denied by a hook");
  }
  if (out.updatedInput) {
    const changed = JSON.stringify(out.updatedInput).slice(0, 500);
    return answer(
      "deny",
      "hook would change the call (updatedInput)",
      `${changed}; bosun runs only the call it judged, never one a hook rewrote`,
      `the hook would run this call with other arguments (${changed}); bosun does not run a call a hook rewrote — call again with those arguments if you mean them`,
    );
  }
  if (said("ask")) return answer("ask", `hook ${said("ask")}`, out.reason ?? "no reason given");
  const passed = said("pass");
  return {
    holder: "hook",
    answer: "no-objection",
    reasons: [
      {
        rule: `hook passed${passed ? ` (${passed} lifts nothing)` : ""}`,
        ...(out.reason ? { detail: out.reason } : {}),
        decisive: true,
      },
      where,
      ...notes,
    ],
  };
}

/** Which hook it was, where it is written: the second reason of every call.hook decision. */
function hookReason(hook: Hook): Reason {
  return {
    rule: hook.key,
    detail: hook.command,
    source: hook.source,
    key: hook.key,
    ...(hook.line ? { line: hook.line } : {}),
  };
}

/**
 * Seat `call.hook` after a call: what one post_tool hook added (recorded; the call already ran,
 * so a failure only means nothing is added), and whether it stopped the turn.
 */
export function judgePostHook(
  hook: Hook,
  run: HookRun,
): Answer<"context" | "nothing" | "failed" | "stop"> & { context?: string; stop?: string } {
  const { context, failure, stop } = postHookContext(run);
  if (failure) {
    return {
      holder: "code",
      answer: "failed",
      reasons: [
        { rule: "hook failed", detail: `${failure}; nothing added (the call already ran)`, decisive: true },
        hookReason(hook),
      ],
    };
  }
  const added = context ? [{ rule: "hook added context", detail: context.slice(0, 500) }] : [];
  if (stop !== undefined) {
    return {
      holder: "hook",
      answer: "stop",
      reasons: [
        {
          rule: 'hook said "continue": false',
          detail: `${stop}; the turn stops after this call`,
          decisive: true,
        },
        hookReason(hook),
        ...added,
      ],
      ...(context ? { context } : {}),
      stop,
    };
  }
  return {
    holder: "hook",
    answer: context ? "context" : "nothing",
    reasons: [
      {
        rule: context ? "hook added context" : "hook added nothing",
        ...(context ? { detail: context.slice(0, 500) } : {}),
        decisive: true,
      },
      hookReason(hook),
    ],
    ...(context ? { context } : {}),
  };
}

/**
 * What a post_tool hook adds to the result the model sees: plain stdout, `{"context": "..."}`,
 * Claude Code's `hookSpecificOutput.additionalContext`, a `decision: "block"`'s `reason`; exit 2
 * sends its stderr. `continue: false` stops the turn (its `stopReason`, for the person). Nothing
 * when it prints nothing; a failure (a crash, another exit code, JSON in no shape bosun knows)
 * adds nothing and is recorded.
 */
export function postHookContext(run: HookRun): { context?: string; failure?: string; stop?: string } {
  if (run.kind === "failed") return { failure: run.why };
  if (run.code === 2) return run.stderr.trim() ? { context: run.stderr.trim() } : {};
  if (run.code !== 0)
    return { failure: `exit code ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ""}` };
  const read = readHookStdout(run.stdout, "post_tool");
  if (read.kind === "invalid") return { failure: read.why };
  if (read.kind === "text") return read.text ? { context: read.text } : {};
  const out = read.output;
  const blocked = out.decisions.some((d) => d.value === "deny");
  const parts = [
    ...out.context,
    ...(blocked ? [out.reason ?? "a hook objected to this result (no reason given)"] : []),
  ];
  return {
    ...(parts.length > 0 ? { context: parts.join("\n") } : {}),
    ...(out.stop ? { stop: out.stop.reason ?? "no reason given" } : {}),
  };
}
