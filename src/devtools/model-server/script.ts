import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * A script tells the scripted model server how to answer. Requests are matched against the
 * rules in order; the first rule that matches and still has replies left answers.
 *
 * String matchers are substring matches, or a regular expression when written "/.../flags".
 */

const Matcher = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    const regex = regexSource(value);
    if (!regex) return;
    try {
      new RegExp(regex.source, regex.flags);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `invalid regular expression: ${(error as Error).message}` });
    }
  });

const MatchSchema = z.strictObject({
  /** The text of the last message (any role: a tool result is a message too). */
  lastMessage: Matcher.optional(),
  /** The text of any message (not the system prompt). */
  anyMessage: Matcher.optional(),
  /** The system prompt (all system and developer messages, joined). */
  system: Matcher.optional(),
  /** The request advertises a tool of exactly this name (or matching "/regex/"). */
  tool: Matcher.optional(),
  /** The 1-based number of the request, counted over the server's life. */
  request: z.int().positive().optional(),
});

const ToolCallSchema = z.strictObject({
  name: z.string().min(1),
  /** An object is sent as JSON; a string is sent raw, so broken JSON can be scripted. */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
  id: z.string().min(1).optional(),
  /** This call names a tool the request does not offer on purpose (to test unknown tools). */
  unadvertised: z.boolean().optional(),
});

const UsageSchema = z.strictObject({
  /** Total input tokens, cached ones included (what the AI SDK reports as `inputTokens`). */
  input: z.int().min(0).optional(),
  output: z.int().min(0).optional(),
  /** The part of `input` read from the prompt cache. */
  cacheRead: z.int().min(0).optional(),
  /** The part of `input` written to the prompt cache. */
  cacheWrite: z.int().min(0).optional(),
});

const ErrorSchema = z.strictObject({
  status: z.int().min(400).max(599),
  /** Sent as JSON; a string is sent raw. Omitted: a realistic body of the request's protocol. */
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const ReplySchema = z
  .strictObject({
    text: z.string().optional(),
    toolCalls: z.array(ToolCallSchema).optional(),
    finish: z.enum(["stop", "length", "tool_calls"]).optional(),
    usage: UsageSchema.optional(),
    /** Wait this long before answering; ends early when the client disconnects. */
    delayMs: z.int().min(0).optional(),
    /** Wait this long between SSE chunks (a slow stream, to watch text arrive piece by piece). */
    frameDelayMs: z.int().min(0).optional(),
    /** Destroy the connection after this many SSE chunks (non-streaming: after half the body). */
    cutAfterChunks: z.int().min(0).optional(),
    /** Stream this many bytes of the body, then send nothing more (the connection stays open). */
    stallAfterBytes: z.int().min(0).optional(),
    error: ErrorSchema.optional(),
    /** Accept the request and never answer: no status, no headers, until the client leaves. */
    hang: z.literal(true).optional(),
    /** Answer 200 with these bytes instead of the protocol's body (no SSE, no JSON). */
    garbage: z.string().min(1).optional(),
    /**
     * The model's thinking, before the text and calls: Anthropic's thinking blocks (with their
     * signature, or redacted data) and OpenAI Responses reasoning items (a summary and the
     * encrypted content); the anthropic and openai (responses) protocols only.
     */
    thinking: z
      .array(
        z.strictObject({
          text: z.string().optional(),
          /** Anthropic: the block's signature (default a scripted one); OpenAI: ignored. */
          signature: z.string().min(1).optional(),
          /** Anthropic: a redacted_thinking block with this data instead of text. */
          redacted: z.string().min(1).optional(),
          /** OpenAI Responses: the item's encrypted_content (default a scripted one). */
          encrypted: z.string().min(1).optional(),
        }),
      )
      .optional(),
    /** Of the output tokens, how many were reasoning (OpenAI Responses' reasoning_tokens). */
    reasoningTokens: z.int().min(0).optional(),
    /**
     * Web searches the provider ran itself, before the text: Anthropic's `server_tool_use` and
     * `web_search_tool_result` blocks (the anthropic protocol only; others refuse the rule).
     */
    providerSearches: z
      .array(
        z.strictObject({
          query: z.string().min(1),
          results: z.array(z.strictObject({ url: z.string().min(1), title: z.string() })).optional(),
        }),
      )
      .optional(),
  })
  .superRefine((reply, ctx) => {
    const only = (kind: "hang" | "garbage") => {
      for (const key of Object.keys(reply) as Array<keyof typeof reply>) {
        if (key !== kind && key !== "delayMs" && reply[key] !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `a ${kind} reply takes only "delayMs" besides "${kind}"`,
          });
        }
      }
    };
    if (reply.hang) only("hang");
    else if (reply.garbage !== undefined) only("garbage");
    if (reply.stallAfterBytes !== undefined && reply.cutAfterChunks !== undefined) {
      ctx.addIssue({ code: "custom", path: ["stallAfterBytes"], message: "a reply either stalls or is cut, not both" });
    }
    if (reply.error) {
      for (const key of [
        "text",
        "thinking",
        "toolCalls",
        "finish",
        "usage",
        "cutAfterChunks",
        "frameDelayMs",
        "stallAfterBytes",
      ] as const) {
        if (reply[key] !== undefined) {
          ctx.addIssue({ code: "custom", path: [key], message: `an error reply takes only "delayMs" besides "error"` });
        }
      }
    }
    const usage = reply.usage;
    if (usage?.input !== undefined && (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0) > usage.input) {
      ctx.addIssue({
        code: "custom",
        path: ["usage", "input"],
        message: "input is the total input tokens: it must be at least cacheRead + cacheWrite",
      });
    }
  });

const RuleSchema = z.strictObject({
  match: MatchSchema.optional(),
  /** An array answers successive matches with successive replies. */
  reply: z.union([ReplySchema, z.array(ReplySchema).min(1)]),
  /**
   * How many requests the rule answers. Default: any number for a single reply, the array's
   * length for an array. Past the array's end the last reply repeats.
   */
  times: z.int().positive().optional(),
});

const ScriptSchema = z.strictObject({
  rules: z.array(RuleSchema),
  /** Model ids listed by GET /v1/models (any model id is answered regardless). */
  models: z.array(z.string().min(1)).optional(),
});

export type Match = z.infer<typeof MatchSchema>;
export type ScriptToolCall = z.infer<typeof ToolCallSchema>;
export type ScriptUsage = z.infer<typeof UsageSchema>;
export type Reply = z.infer<typeof ReplySchema>;
export type Rule = z.infer<typeof RuleSchema>;
/** A script, as written in its JSON file. */
export type Script = z.infer<typeof ScriptSchema>;

/** Validates a script; the error names the source, the rule index and the field. */
export function parseScript(input: unknown, source: string): Script {
  const result = ScriptSchema.safeParse(input);
  if (!result.success) {
    const problems = flatten(result.error.issues, []).map((issue) => `  ${formatPath(issue.path)}: ${issue.message}`);
    throw new Error(`invalid model script ${source}:\n${problems.join("\n")}`);
  }
  return result.data;
}

/** Reads and validates a JSON script file. */
export function loadScriptFile(path: string): Script {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read model script ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`model script ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseScript(json, path);
}

/** How many requests a rule answers. */
export function ruleTimes(rule: Rule): number {
  return rule.times ?? (Array.isArray(rule.reply) ? rule.reply.length : Number.POSITIVE_INFINITY);
}

/** The reply for the rule's `use`-th answer (0-based); past an array's end, its last reply. */
export function ruleReply(rule: Rule, use: number): { reply: Reply; index: number } {
  if (!Array.isArray(rule.reply)) return { reply: rule.reply, index: 0 };
  const index = Math.min(use, rule.reply.length - 1);
  return { reply: rule.reply[index] as Reply, index };
}

/** `/abc/i` → {source: "abc", flags: "i"}; anything else is a plain substring. */
export function regexSource(value: string): { source: string; flags: string } | undefined {
  const found = /^\/(.+)\/([a-z]*)$/s.exec(value);
  if (!found) return undefined;
  return { source: found[1] as string, flags: found[2] as string };
}

interface Problem {
  path: PropertyKey[];
  message: string;
}

/**
 * zod reports a failed union as one "Invalid input" at the union. Point into the branch the
 * input was meant for instead (the one that did not fail on the input's type itself), so
 * `reply: [...]` errors name the reply and field.
 */
function flatten(issues: readonly z.core.$ZodIssue[], base: PropertyKey[]): Problem[] {
  const problems: Problem[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code !== "invalid_union" || issue.errors.length === 0) {
      problems.push({ path, message: issue.message });
      continue;
    }
    const wrongType = (branch: readonly z.core.$ZodIssue[]) =>
      branch.length === 1 && branch[0]?.code === "invalid_type" && branch[0].path.length === 0;
    const meant = issue.errors.filter((branch) => !wrongType(branch));
    if (meant.length === 1) {
      problems.push(...flatten(meant[0] ?? [], path));
      continue;
    }
    const expected = issue.errors
      .filter(wrongType)
      .map((branch) => (branch[0] as z.core.$ZodIssueInvalidType).expected)
      .map((type) => (type === "record" ? "object" : type));
    problems.push({ path, message: expected.length > 0 ? `expected ${expected.join(" or ")}` : issue.message });
  }
  return problems;
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return "(script)";
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text ? `.${String(part)}` : String(part);
  }
  return text;
}
