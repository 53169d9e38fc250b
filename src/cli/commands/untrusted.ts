import type { LoadedConfig } from "../../config/load.js";
import { projectLoosening } from "../../permission/trust/project-trust.js";
import { isTrusted } from "../../store/trusted-projects.js";
import { workspaceOf } from "../../util/repo.js";
import { READ_ONLY, withStore } from "./store.js";

/**
 * What this repository's config would loosen, when nobody trusted that content (seat
 * project.trust): a command that shows what a run would use (doctor, models) leaves it out too.
 */
export function untrustedLoosening(config: LoadedConfig): string[] | undefined {
  const loosening = projectLoosening(config);
  if (!loosening) return undefined;
  let trusted = false;
  try {
    trusted = withStore((store) => isTrusted(store, workspaceOf(process.cwd()), loosening.fingerprint), READ_ONLY);
  } catch {
    // The database check reports what is wrong with it; here it only means no saved trust.
  }
  return trusted ? undefined : loosening.items;
}
