import { spawn } from "node:child_process";
import type { LoadedConfig } from "../config/load.js";
import type { Answer, Holder, Reason } from "../seats/types.js";
import { bwrapProgram, type Confinement, confinedArgv } from "../tools/sandbox.js";
import { toolEnvironment } from "../util/withheld-env.js";
import type { RepositoryGrant } from "./confine.js";
import { matchName } from "./match.js";

export type HookEvent = "pre_tool" | "post_tool";

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

export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;
/** Most characters of a hook's stdout or stderr kept. */
const HOOK_OUTPUT_LIMIT = 64_000;

/**
 * Every layer's hooks, lowest layer first. Hooks are not merged like other keys: a project's
 * `hooks.pre_tool` adds to the user's global ones, it cannot replace (and so silently drop) them.
 */
export function hooksFromConfig(config: LoadedConfig): Hook[] {
  const hooks: Hook[] = [];
  for (const doc of config.documents) {
    for (const event of ["pre_tool", "post_tool"] as const) {
      (doc.data.hooks?.[event] ?? []).forEach((hook, index) => {
        const line = doc.lineOf?.(["hooks", event, index]);
        hooks.push({
          event,
          command: hook.command,
          ...(hook.tools ? { tools: hook.tools } : {}),
          timeoutMs: hook.timeout_ms ?? DEFAULT_HOOK_TIMEOUT_MS,
          onError: hook.on_error ?? "deny",
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

export function hooksFor(hooks: readonly Hook[], event: HookEvent, tool: string): Hook[] {
  return hooks.filter((h) => h.event === event && (h.tools === undefined || h.tools.some((p) => matchName(p, tool))));
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
        env: { ...toolEnvironment(), BOSUN_HOOK: hook.event },
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

export type PreHookAnswer = "deny" | "ask" | "no-objection";

/**
 * Seat `call.hook` before a call: what one pre_tool hook's run says. Exit 2, or
 * `{"decision":"deny"}` (or `"block"`) on stdout, denies with the reason given (stderr or
 * `reason`); `{"decision":"ask"}` makes the call ask; exit 0 otherwise is no objection — a hook
 * can tighten, never loosen (`"allow"` lifts nothing). A hook that crashes, exits with another
 * code, times out or prints a decision bosun does not know has failed: its `on_error` answers,
 * deny unless the config says allow.
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
  const parsed = parseHookJson(run.stdout);
  if (parsed === "broken") return failed("its stdout starts like JSON but does not parse");
  if (parsed === undefined) {
    return {
      holder: "hook",
      answer: "no-objection",
      reasons: [{ rule: "hook passed (exit 0)", decisive: true }, where],
    };
  }
  const decision = parsed.decision;
  const reason = typeof parsed.reason === "string" && parsed.reason.trim() !== "" ? parsed.reason.trim() : undefined;
  if (decision === "deny" || decision === "block") {
    return {
      holder: "hook",
      answer: "deny",
      reasons: [{ rule: `hook decision "${decision}"`, detail: reason ?? "no reason given", decisive: true }, where],
      message: reason ?? "denied by a hook",
    };
  }
  if (decision === "ask") {
    return {
      holder: "hook",
      answer: "ask",
      reasons: [{ rule: 'hook decision "ask"', detail: reason ?? "no reason given", decisive: true }, where],
    };
  }
  if (decision === undefined || decision === "allow" || decision === "approve") {
    return {
      holder: "hook",
      answer: "no-objection",
      reasons: [
        {
          rule: `hook passed${decision ? ` ("${decision}" lifts nothing)` : ""}`,
          ...(reason ? { detail: reason } : {}),
          decisive: true,
        },
        where,
      ],
    };
  }
  return failed(`unknown decision ${JSON.stringify(decision)} (expected deny, ask or allow)`);
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
 * so a failure only means nothing is added).
 */
export function judgePostHook(
  hook: Hook,
  run: HookRun,
): Answer<"context" | "nothing" | "failed"> & { context?: string } {
  const { context, failure } = postHookContext(run);
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
 * What a post_tool hook adds to the result the model sees: `{"context": "..."}` on stdout, or
 * plain stdout; exit 2 sends its stderr. Nothing when it prints nothing or fails (recorded).
 */
export function postHookContext(run: HookRun): { context?: string; failure?: string } {
  if (run.kind === "failed") return { failure: run.why };
  if (run.code === 2) return run.stderr.trim() ? { context: run.stderr.trim() } : {};
  if (run.code !== 0)
    return { failure: `exit code ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ""}` };
  const parsed = parseHookJson(run.stdout);
  if (parsed === "broken") return { failure: "its stdout starts like JSON but does not parse" };
  if (parsed !== undefined)
    return typeof parsed.context === "string" && parsed.context.trim() ? { context: parsed.context.trim() } : {};
  return run.stdout.trim() ? { context: run.stdout.trim() } : {};
}

/** A JSON object on stdout; undefined when stdout is plain text; "broken" when it starts like JSON and does not parse. */
function parseHookJson(stdout: string): Record<string, unknown> | undefined | "broken" {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : "broken";
  } catch {
    return "broken";
  }
}
