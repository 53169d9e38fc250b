import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseJsonc } from "../../config/jsonc.js";
import type { Request } from "../../contracts/requests.js";
import { ConfigError } from "../../errors.js";
import { isPlainObject } from "../../util/object.js";
import { policyRuleFor } from "./evaluate.js";
import type { MatchContext } from "./match.js";
import { type Rule, rulesFromConfig } from "./rules.js";

/** Where an administrator puts the policy for every user of the machine. */
export const SYSTEM_POLICY_FILE = "/etc/bosun/policy.json";

export interface Policy {
  rules: Rule[];
  /** The policy files read, in order. */
  files: string[];
}

/**
 * The administrator's policy: deny-only permission rules that apply after everything else —
 * config, saved approvals and hooks cannot override them. `/etc/bosun/policy.json` always applies
 * when it exists; `BOSUN_POLICY` names one more file (it must exist), it never replaces the
 * system one. Any problem — unreadable, malformed, an allow or ask rule, an unknown key — is a
 * ConfigError naming the file and line: bosun does not run under a policy it cannot read.
 */
export function loadPolicy(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Policy {
  const files: string[] = [];
  if (existsSync(SYSTEM_POLICY_FILE)) files.push(SYSTEM_POLICY_FILE);
  if (env.BOSUN_POLICY) {
    const file = resolve(cwd, env.BOSUN_POLICY);
    if (!existsSync(file)) throw new ConfigError(`BOSUN_POLICY points to ${file}, which does not exist`);
    if (!files.includes(file)) files.push(file);
  }
  return { rules: files.flatMap(readPolicyFile), files };
}

function readPolicyFile(file: string): Rule[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the policy: ${(error as Error).message}`);
  }
  const doc = parseJsonc(text, file);
  if (!isPlainObject(doc.data)) throw new ConfigError(`${file}: a policy must be a JSON object`);
  for (const key of Object.keys(doc.data)) {
    if (key !== "permission" && key !== "$schema") {
      const line = doc.lineOf([key]);
      throw new ConfigError(
        `${file}${line ? `:${line}` : ""}: unknown key "${key}" (a policy holds "permission" rules)`,
      );
    }
  }
  return rulesFromConfig((doc.data as { permission?: unknown }).permission, {
    layer: "policy",
    file,
    lineOf: doc.lineOf,
  });
}

/** The policy rule that denies each request it covers (the evaluator's `policyRuleFor`). */
export function policyDenials(requests: readonly Request[], policy: readonly Rule[], ctx: MatchContext) {
  return requests.flatMap((request) => {
    const rule = policyRuleFor(request, policy, ctx);
    return rule ? [{ request, rule }] : [];
  });
}
