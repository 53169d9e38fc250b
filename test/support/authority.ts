import { decideAgent } from "../../src/agents/select.js";
import { type LoadedConfig, loadConfig } from "../../src/config/load.js";
import type { AuthorityContext } from "../../src/permission/gate/authorize.js";
import { buildAuthority } from "../../src/permission/rules/layers.js";

/**
 * The config of a workspace whose person's config lives in `home`, and the authority a run of
 * the default agent in approve mode would judge with there (no saved approvals).
 */
export function approveAuthority(ws: string, home: string): { config: LoadedConfig; authority: AuthorityContext } {
  const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: home } });
  const authority = buildAuthority({
    config,
    agent: decideAgent(undefined, config).agent,
    mode: { name: "approve", holder: "code" },
    saved: [],
    cwd: ws,
    workspace: ws,
    home,
  });
  return { config, authority };
}
