import { dirname } from "node:path";
import { decideAgent } from "../../agents/select.js";
import { type LoadedConfig, loadConfig } from "../../config/load.js";
import { dataDir, globalConfigFile } from "../../config/paths.js";
import type { Confinement } from "../../contracts/confinement.js";
import type { Decision } from "../../contracts/decisions.js";
import type { GateDeps } from "../../permission/gate/gate.js";
import { projectLoosening, withoutLoosening } from "../../permission/trust/project-trust.js";
import { prepareAuthority, trustProjectCommands } from "../../runtime/authority.js";
import { isTrusted } from "../../store/trusted-projects.js";
import { workspaceOf } from "../../util/repo.js";
import { loadForCommand } from "./config.js";
import { READ_ONLY, withStore } from "./store.js";

/** Whether one server may be started here, and if it is the repository's, how it is confined. */
export type MayStart = { start: true; confine?: Confinement } | { start: false; why: string };

/** The config as a run would use it here, and which of its servers may start. */
export interface StartPlan {
  /** Every server as configured, the untrusted repository's too: what is listed. */
  listed: LoadedConfig;
  /** The config a run would start servers from (an untrusted repository's loosening left out). */
  loaded: LoadedConfig;
  /** By server name; a server of the user's own config may always start. */
  verdicts: Map<string, MayStart>;
}

/**
 * What `bosun mcp list|get|test` may start, decided as a run decides it and never looser: an
 * untrusted repository's loosening is left out (seat project.trust), and each server the
 * repository's own config names is judged (seat project.command) by every rule layer but the
 * repository's, with nobody to ask — so it "needs trust" unless your rules or saved approvals
 * allow it. `trustProject` is the person saying yes to it for this command (`--trust-project`):
 * it then runs sealed, exactly as a run would run it once approved. Nothing is recorded (no
 * session); the reasons are what the command prints.
 */
export async function planStarts(cwd: string, trustProject: boolean, signal: AbortSignal): Promise<StartPlan> {
  const listed = loadForCommand();
  let loaded = listed;
  const loosening = projectLoosening(listed);
  const trusted = trustProject || (loosening !== undefined && savedTrust(cwd, loosening.fingerprint));
  if (loosening && !trusted) loaded = loadConfig({ cwd, filterProject: withoutLoosening });
  const verdicts = new Map<string, MayStart>();
  for (const name of Object.keys(loaded.config.mcp ?? {})) verdicts.set(name, { start: true });
  const deps = gateFor(loaded, cwd, trusted, signal);
  if (trustProject) deps.prompt = { ask: async () => ({ kind: "once" }) };
  const decisions: Decision[] = [];
  const allowed = await trustProjectCommands(
    loaded,
    () => deps,
    (d) => decisions.push(d),
    () => {},
  );
  for (const [key, confine] of allowed.confinements) {
    verdicts.set(key.slice(4), confine ? { start: true, confine } : { start: true });
  }
  for (const key of allowed.skipped) {
    if (!key.startsWith("mcp.")) continue;
    const mine = decisions.filter((d) => d.subject?.key === key);
    const sandbox = mine.find((d) => d.seat === "exec.sandbox");
    const judged = mine.find((d) => d.seat === "project.command");
    const why =
      sandbox?.reasons[0]?.detail ??
      judged?.reasons.find((r) => r.decisive)?.detail ??
      "not approved (project.command)";
    verdicts.set(key.slice(4), { start: false, why });
  }
  // A server the untrusted repository's config makes read your environment or files does not run at all.
  for (const name of Object.keys(listed.config.mcp ?? {})) {
    if (loaded.config.mcp?.[name]) continue;
    verdicts.set(name, {
      start: false,
      why: "it reads your environment or files, and the repository's config is not trusted (seat project.trust; --trust-project)",
    });
  }
  return { listed, loaded, verdicts };
}

/** A trust saved for exactly this content; a store that cannot be read trusts nothing. */
function savedTrust(cwd: string, fingerprint: string): boolean {
  try {
    return withStore((store) => isTrusted(store, workspaceOf(cwd), fingerprint), READ_ONLY);
  } catch {
    return false;
  }
}

/** The gate a run would judge the repository's commands with, before its session exists. */
function gateFor(loaded: LoadedConfig, cwd: string, trusted: boolean, signal: AbortSignal): GateDeps {
  const { agent } = decideAgent(undefined, loaded);
  // Your saved approvals count, as in a run; a database that cannot be read is explained by main.ts.
  const prepared = withStore(
    (store) =>
      prepareAuthority({
        config: loaded,
        agent,
        flags: {},
        store,
        cwd,
        ...(trusted ? { trust: { seat: "project.trust", holder: "person", answer: "trusted", reasons: [] } } : {}),
      }),
    READ_ONLY,
  );
  return {
    authority: prepared.authority,
    policy: prepared.policy,
    hooks: [],
    auto: false,
    sandbox: loaded.config.shell.sandbox,
    visible: [prepared.authority.workspace],
    ownState: [dataDir(), dirname(globalConfigFile())],
    // A yes given here is for this command only: nothing is saved.
    saveAlways: () => {},
    record: () => {},
    sessionId: "",
    signal,
  };
}
