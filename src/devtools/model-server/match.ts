import type { NormalizedRequest } from "./normalize.js";
import { type Match, type Reply, type Rule, regexSource, ruleReply, ruleTimes } from "./script.js";

/**
 * Picks the rule that answers a request: the first, in script order, that matches and still
 * has replies left. Keeps how often each rule has answered.
 */

export interface Pick {
  /** 0-based index of the rule in the script. */
  rule: number;
  /** 0-based index of the reply within the rule's reply array (0 for a single reply). */
  reply: number;
  value: Reply;
}

/** A string matcher: substring, or a regular expression written "/.../flags". */
export function textMatcher(pattern: string): (text: string) => boolean {
  const regex = regexSource(pattern);
  if (!regex) return (text) => text.includes(pattern);
  // A global or sticky regex keeps state between tests; matching must not.
  const compiled = new RegExp(regex.source, regex.flags.replace(/[gy]/g, ""));
  return (text) => compiled.test(text);
}

/** A tool matcher: exact name, or a regular expression written "/.../flags". */
function toolMatcher(pattern: string): (name: string) => boolean {
  return regexSource(pattern) ? textMatcher(pattern) : (name) => name === pattern;
}

export function matches(match: Match, request: NormalizedRequest, number: number): boolean {
  if (match.request !== undefined && match.request !== number) return false;
  if (match.lastMessage !== undefined) {
    const last = request.messages[request.messages.length - 1];
    if (!last || !textMatcher(match.lastMessage)(last.text)) return false;
  }
  if (match.anyMessage !== undefined) {
    const test = textMatcher(match.anyMessage);
    if (!request.messages.some((message) => test(message.text))) return false;
  }
  if (match.system !== undefined && !textMatcher(match.system)(request.system)) return false;
  if (match.tool !== undefined) {
    const test = toolMatcher(match.tool);
    if (!request.tools.some(test)) return false;
  }
  return true;
}

export class RuleBook {
  private readonly uses: number[];

  constructor(private readonly rules: readonly Rule[]) {
    this.uses = rules.map(() => 0);
  }

  pick(request: NormalizedRequest, number: number): Pick | undefined {
    for (const [index, rule] of this.rules.entries()) {
      const used = this.uses[index] ?? 0;
      if (used >= ruleTimes(rule)) continue;
      if (!matches(rule.match ?? {}, request, number)) continue;
      this.uses[index] = used + 1;
      const { reply, index: replyIndex } = ruleReply(rule, used);
      return { rule: index, reply: replyIndex, value: reply };
    }
    return undefined;
  }

  /** Rules that can still answer, for the no-match explanation. */
  remaining(): string {
    const open = this.rules
      .map((rule, index) => ({ index, left: ruleTimes(rule) - (this.uses[index] ?? 0), match: rule.match ?? {} }))
      .filter((rule) => rule.left > 0);
    if (open.length === 0) return "every rule is used up";
    return open
      .map(
        (rule) =>
          `rule ${rule.index} (${Number.isFinite(rule.left) ? `${rule.left} left` : "unlimited"}): ${JSON.stringify(rule.match)}`,
      )
      .join("; ");
  }
}
