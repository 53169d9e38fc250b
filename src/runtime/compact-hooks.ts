import { decideAgent } from "../agents/select.js";
import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import type { CompactHooks } from "../loop/window.js";
import type { SessionStore } from "../store/session-store.js";
import { gateDeps, judgedHooks, prepareAuthority, trustProjectCommands } from "./authority.js";
import { sandboxOrigin } from "./session-config.js";
import { warnOnStderr } from "./warn.js";

/**
 * The pre_compact hooks of a compaction asked for outside any run (`bosun compact`): the gate a
 * run of the session would settle, with nobody to ask — so a repository's hook runs only on a
 * lasting yes already given (seat project.command, recorded as a run's is) and confined as in a
 * run. Undefined when no pre_compact hook is configured: then nothing is judged or recorded.
 */
export async function manualCompactHooks(input: {
  config: LoadedConfig;
  store: SessionStore;
  sessionId: string;
  cwd: string;
  trust?: Decision;
  record: (decision: Decision) => void;
  signal: AbortSignal;
  warn?: (text: string) => void;
}): Promise<CompactHooks | undefined> {
  const { config, store, cwd } = input;
  if (!config.config.hooks?.pre_compact?.length) return undefined;
  const prepared = prepareAuthority({
    config,
    agent: decideAgent(undefined, config).agent,
    flags: {},
    store,
    cwd,
    ...(input.trust ? { trust: input.trust } : {}),
  });
  // Only the hooks a compaction runs: the others, and the MCP servers, are not judged here.
  prepared.hooks = prepared.hooks.filter((hook) => hook.event === "pre_compact");
  const gate = gateDeps({
    prepared,
    store,
    sessionId: input.sessionId,
    auto: false,
    interactive: false,
    sandbox: config.config.shell.sandbox,
    ...sandboxOrigin(config),
    record: input.record,
    signal: input.signal,
  });
  const withoutServers = { ...config, config: { ...config.config, mcp: {} } };
  const allowed = await trustProjectCommands(
    withoutServers,
    () => gate.current(),
    input.record,
    input.warn ?? warnOnStderr,
  );
  gate.settle((settled) => ({ ...settled, hooks: judgedHooks(settled.hooks, allowed) }));
  const { runCompactHooks } = await import("../permission/gate/lifecycle.js");
  return (trigger) => runCompactHooks(gate.current(), trigger);
}
