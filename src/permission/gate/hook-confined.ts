import { repositoryConfinement } from "./confine.js";
import type { GateDeps } from "./gate.js";
import { type Hook, type HookRun, runHook } from "./hooks.js";

/**
 * Runs a hook: a repository's inside the confinement its grant allows, made now (so files the
 * rules protect that appeared since are shown empty too); one that cannot be confined any more
 * has failed, which its on_error answers (deny, by default).
 */
export async function runConfinedHook(hook: Hook, input: unknown, deps: GateDeps): Promise<HookRun> {
  if (!hook.fromProject) return runHook(hook, input, deps.authority.cwd, deps.signal);
  const sandbox = await repositoryConfinement(hook.grant ?? "proof", deps);
  if (sandbox.answer === "unavailable" || sandbox.answer === "denied") {
    return { kind: "failed", why: `it cannot run confined: ${sandbox.reasons[0]?.detail ?? sandbox.answer}` };
  }
  return runHook(hook, input, deps.authority.cwd, deps.signal, sandbox.confine);
}
