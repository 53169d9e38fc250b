import { createContext, Script } from "node:vm";

/** How long one match of a schema's pattern may take before it counts as not matching. */
export const PATTERN_MATCH_MS = 250;

/** What ajv calls a regular expression engine: `(pattern, flags) => { test }`, and how standalone code names it. */
export interface BoundedRegExpEngine {
  (pattern: string, flags: string): { test: (text: string) => boolean; toString: () => string };
  code: string;
}

let sandbox: { context: object; script: Script } | undefined;

/**
 * A JSON Schema's `pattern` and `patternProperties` are someone else's regular expressions (a
 * repository's recipe, an MCP server's tool) matched against text someone else shapes (a model's
 * answer, its arguments): one with nested repetition (`^(a|a)+$`) backtracks for ever on a
 * crafted string, with the whole process stuck in it — no Ctrl-C, no budget. Each match runs
 * under a vm timeout instead; one that takes longer than PATTERN_MATCH_MS throws, and the
 * validators count that as the value not fitting (fail closed), never as a pass.
 */
export const boundedRegExp: BoundedRegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const regex = new RegExp(pattern, flags);
    return {
      // ajv keys its compiled patterns by this: each must say which it is, or two would share one.
      toString: () => regex.toString(),
      test(text: string): boolean {
        sandbox ??= { context: createContext({}), script: new Script("r.lastIndex = 0; r.test(s)") };
        const context = sandbox.context as { r?: RegExp; s?: string };
        context.r = regex;
        context.s = text;
        try {
          return sandbox.script.runInContext(context, { timeout: PATTERN_MATCH_MS }) === true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ERR_SCRIPT_EXECUTION_TIMEOUT")
            throw new PatternTimeout(pattern);
          throw error;
        } finally {
          context.r = undefined;
          context.s = undefined;
        }
      },
    };
  },
  { code: "boundedRegExp" },
);

/** A schema's pattern that took too long to match: the value does not fit. */
export class PatternTimeout extends Error {
  constructor(pattern: string) {
    super(
      `the pattern ${JSON.stringify(pattern.slice(0, 200))} took over ${PATTERN_MATCH_MS} ms to match: the value is taken as not matching`,
    );
  }
}
