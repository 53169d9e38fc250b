import type { CallDescription } from "../../contracts/requests.js";
import { narrowRule } from "../rules/always.js";
import type { Authority } from "../rules/intersect.js";
import { type Rule, ruleFromSpec } from "../rules/rules.js";
import { type AuthorityContext, authorize, type Judged } from "./authorize.js";

/**
 * The narrow fix for a call denied because nobody could approve it: the `--allow` flags that
 * would let exactly this call run next time — per asking request the rule an "always" would save
 * (always.ts, so the hint and the prompt agree), paths in the workspace written relative to it,
 * quoted for the shell (`--allow 'shell:npm test *'`). Pure. Each flag is parsed as `--allow`
 * parses it, and the call is judged again with them added where `--allow` puts its rules; no
 * hint unless that allows it — a flag that would not (a read-only agent, a protected file, an
 * ask only a person who sees the call may answer) is never suggested, and then --auto is not
 * either when it would not cover the call.
 */
export function allowHint(
  description: CallDescription,
  outcomes: readonly Judged[],
  ctx: AuthorityContext,
): string[] | undefined {
  if (description.problem !== undefined) return undefined;
  const asking = outcomes.filter((o) => o.effect === "ask");
  if (asking.length === 0 || asking.some((o) => o.personOnly !== undefined)) return undefined;
  const specs: string[] = [];
  for (const outcome of asking) {
    const found = narrowRule(outcome, ctx.workspace);
    if ("unavailable" in found) return undefined;
    const spec = `${found.narrow.action}:${found.narrow.pattern}`;
    if (!specs.includes(spec)) specs.push(spec);
  }
  let rules: Rule[];
  try {
    rules = specs.map((spec) => ruleFromSpec(spec, "allow", { layer: "session", key: `--allow ${spec}` }));
  } catch {
    return undefined;
  }
  const again = authorize(description, { ...ctx, rules: withSessionAllows(ctx.rules, rules) });
  return again.answer === "allow" ? specs.map((spec) => `--allow ${shellQuote(spec)}`) : undefined;
}

/**
 * The authority with more `--allow` rules, placed as the run's own would be: in the session
 * layer after its allows, before its asks and denies (layers.ts: among the run's flags the
 * stricter is the later). A delegate's intersection gets them in its first set, the run's own.
 */
function withSessionAllows(authority: Authority, rules: readonly Rule[]): Authority {
  const add = (layers: readonly Rule[][]): Rule[][] => {
    const flat = layers.flat();
    const stricter = flat.findIndex((r) => r.source.layer === "session" && r.effect !== "allow");
    const at = stricter < 0 ? flat.length : stricter;
    return [[...flat.slice(0, at), ...rules, ...flat.slice(at)]];
  };
  if (Array.isArray(authority)) return add(authority);
  const [first, ...rest] = authority.sets;
  if (!first) return authority;
  return { sets: [{ ...first, layers: add(first.layers) }, ...rest] };
}

/** One word for a POSIX shell: single quotes, a quote inside written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
