import { realpathSync } from "node:fs";
import { join } from "node:path";
import { decideAgent } from "../../src/agents/select.js";
import { loadConfig } from "../../src/config/load.js";
import type { ModeName } from "../../src/contracts/modes.js";
import type { AuthorityContext } from "../../src/permission/gate/authorize.js";
import { type ReadCheck, readCheck } from "../../src/permission/gate/read-check.js";
import { buildAuthority, type SessionRuleFlags } from "../../src/permission/rules/layers.js";
import type { Policy } from "../../src/permission/rules/policy.js";
import type { Rule } from "../../src/permission/rules/rules.js";

/**
 * A run's read check built the real way for a workspace `ws` (a folder holding the repository):
 * the config layers read from disk (the user's from `<home>/bosun.json` when `home` is given,
 * else an empty one), the built-in rules, the flags and a policy.
 */
export function checkFor(
  ws: string,
  options: {
    home?: string;
    flags?: SessionRuleFlags;
    policy?: Rule[];
    mode?: ModeName;
    env?: NodeJS.ProcessEnv;
  } = {},
): { check: ReadCheck; authority: AuthorityContext; policy: Policy } {
  const workspace = realpathSync(ws);
  const home = options.home ?? join(workspace, "..", "no-home");
  const config = loadConfig({ cwd: workspace, env: { BOSUN_HOME: home, ...options.env } });
  const authority = buildAuthority({
    config,
    agent: decideAgent(undefined, config).agent,
    mode: { name: options.mode ?? "approve", holder: "code" },
    ...(options.flags ? { flags: options.flags } : {}),
    cwd: workspace,
    workspace,
    home,
  });
  const policy: Policy = { rules: options.policy ?? [], files: options.policy ? ["/etc/bosun/policy.json"] : [] };
  return { check: readCheck({ authority, policy }), authority, policy };
}
