import { isAbsolute } from "node:path";
import { z } from "zod";
import type { Decision } from "../contracts/decisions.js";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import { findSeat } from "../seats/catalog.js";
import { DECISION_EVENT } from "../seats/record.js";
import { EV } from "./events.js";
import { USAGE_EVENT } from "./usage.js";

/**
 * The typed journal: every event type bosun stores, once, with the shape of its data. What an
 * import brings is checked against these (transfer.ts), so a file cannot put into the log what
 * bosun itself would never have written — data the next run would trip over. A scenario test
 * checks every event a real run stores against them (schemas.test.ts), so a new event type
 * without a schema, or a changed shape, fails there.
 *
 * Strict objects: a key bosun never writes is refused too, so a schema that drifts from what
 * the code appends is noticed instead of quietly waved through.
 */

/**
 * A session id as bosun makes them (store/session-store.ts: a ULID — 26 characters of Crockford
 * base32, the first at most 7). Ids become folder names (the session's overflow folder) and
 * parts of allow rules, so nothing else is ever taken for one.
 */
export const SESSION_ID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export const sessionId = z
  .string()
  .regex(SESSION_ID, "must be a session id as bosun makes them (a ULID: 26 characters of Crockford base32)");

export function isSessionId(value: unknown): value is string {
  return typeof value === "string" && SESSION_ID.test(value);
}

/** Text without NUL: SQLite and C strings end at one, so what is stored would differ from what is shown. */
export const cleanText = z.string().refine((s) => !s.includes("\0"), "must not contain a NUL character");
export const absolutePath = cleanText.refine((s) => isAbsolute(s), "must be an absolute path");
const count = z.int().nonnegative();
const step = z.int().positive();
const amount = z.number().nonnegative();

const created = z.strictObject({
  title: cleanText,
  directory: absolutePath,
  parent: sessionId.nullable(),
  // A fork's (session/open.ts forkSession).
  forked_from: sessionId.optional(),
  forked_at_seq: step.optional(),
  copied: count.optional(),
  // A delegate's (runtime/delegate.ts): the agent it runs, the parent's task call that started it, how deep it is.
  delegate: z
    .strictObject({ agent: cleanText, description: cleanText.optional(), call: cleanText, depth: count })
    .optional(),
});

const userMessage = z.strictObject({
  text: z.string(),
  // Attached files (`-f`): text, or an image (base64) sent to models that take images.
  files: z
    .array(
      z.strictObject({
        path: cleanText,
        content: z.string(),
        image: z.strictObject({ mediaType: cleanText, data: z.string() }).optional(),
      }),
    )
    .optional(),
});

// bosun's own message to the model; `kind` marks the ones bosun looks up again (the last
// environment sent); `path`, for instructions added on a read, is the file's.
const notice = z.strictObject({
  text: z.string(),
  kind: z.enum(["environment", "instructions"]).optional(),
  path: cleanText.optional(),
});

const toolCall = z.strictObject({
  id: cleanText,
  name: z.string(),
  // As the model wrote it: an unreadable call keeps its text, the result says why it was refused.
  input: z.unknown(),
  invalid: z.boolean().optional(),
  error: z.string().optional(),
  // Sent back with the call: Gemini refuses a signed call replayed without its thought signature.
  metadata: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});

const assistantMessage = z.strictObject({
  text: z.string(),
  // The model's reasoning parts, with the provider metadata they must be sent back with
  // (Anthropic's signature or redacted data, OpenAI's item id and encrypted content).
  reasoning: z
    .array(
      z.strictObject({
        text: z.string(),
        metadata: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
      }),
    )
    .optional(),
  toolCalls: z.array(toolCall),
  finish: cleanText,
  model: cleanText,
  step,
  // "complete", or "interrupted" when the stream broke after output (partial text kept).
  status: z.enum(["complete", "interrupted", "failed", "aborted"]),
});

const callRef = z.strictObject({ id: cleanText, name: z.string() });

const callStarted = z.strictObject({
  id: cleanText,
  name: z.string(),
  // Prepared input: parsed, repaired and validated against the tool's parameters — an object.
  input: z.record(z.string(), z.unknown()),
  // 0: a command the person ran between turns (`!cmd`, a custom command's span).
  step: count,
});

const callFinished = z.strictObject({
  id: cleanText,
  name: z.string(),
  // What the model sees (already bounded).
  output: z.string(),
  isError: z.boolean(),
  summary: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  // Images the call returned (read of a picture): sent after the results to models that take images.
  images: z.array(z.strictObject({ path: cleanText, mediaType: cleanText, data: z.string() })).optional(),
});

const turnEnded = z.strictObject({
  status: z.enum(["done", "limit", "repeat", "failed", "cancelled", "blocked"]),
  steps: count,
  message: z.string().optional(),
});

const reason = z.strictObject({
  rule: z.string(),
  detail: z.string().optional(),
  source: z.string().optional(),
  key: z.string().optional(),
  line: z.number().optional(),
  decisive: z.boolean().optional(),
});

/**
 * A decision bosun could have recorded (seats/record.ts): the Decision shape, a seat declared in
 * the catalog, a holder that seat admits. `bosun why` renders imported decisions as its own.
 */
const decision = z
  .strictObject({
    seat: z.string(),
    holder: z.string(),
    answer: z.unknown(),
    reasons: z.array(reason),
    subject: z.looseObject({ step: count.optional(), call: z.string().optional() }).optional(),
  })
  .superRefine((data, ctx) => {
    if (data.answer === undefined) ctx.addIssue({ code: "custom", path: ["answer"], message: "missing" });
    const declared = findSeat(data.seat);
    if (!declared) {
      ctx.addIssue({
        code: "custom",
        path: ["seat"],
        message: `"${data.seat}" is not a seat this bosun declares (bosun seats lists them)`,
      });
    } else if (!(declared.holders as readonly string[]).includes(data.holder)) {
      ctx.addIssue({
        code: "custom",
        path: ["holder"],
        message: `seat ${data.seat} cannot be held by "${data.holder}" (holders: ${declared.holders.join(", ")})`,
      });
    }
  });

const usage = z.strictObject({
  model: cleanText,
  input: amount,
  output: amount,
  cacheRead: amount,
  cacheWrite: amount,
  // The part of output spent reasoning, when the provider said.
  reasoning: amount.optional(),
  cost: amount.optional(),
  // Requests that do not measure the conversation (compaction/compact.ts, model/title.ts).
  for: z.enum(["compaction.summary", "session.title"]).optional(),
});

const checkpoint = z.strictObject({
  // The validated summary (markdown, the five sections of seat compaction.summary).
  summary: z.string(),
  // The seq of the first event kept verbatim; every message event before it is in the summary.
  keptFrom: step,
  // Estimated tokens of the conversation before and after the compaction.
  tokensBefore: amount,
  tokensAfter: amount,
  // The model that wrote the summary, "provider/model".
  model: cleanText,
  reason: z.enum(["threshold", "overflow", "manual"]),
});

const fileSeen = z.union([
  z.strictObject({ path: absolutePath, mtimeMs: z.number(), size: count, hash: cleanText.optional(), at: z.number() }),
  z.strictObject({ path: absolutePath, gone: z.literal(true) }),
]);

// A snapshot of the work tree (store/snapshots.ts): before a step whose calls may change files,
// and at the end of such a turn. `tree` is the shadow repository's tree id. Or why none was taken
// (recorded once a run): undo then cannot bring those turns' files back.
const gitTree = z.string().regex(/^[0-9a-f]{40,64}$/, "must be a git tree id");
const filesSnapshot = z.union([
  z.strictObject({
    tree: gitTree,
    turn: step,
    step: z.union([step, z.literal("end")]),
    // Files over undo.max_file_bytes, not in the tree (at most 100 named; leftOutMore: there were more).
    // Undo must not take a file the tree lacks for one the turn created.
    leftOut: z.array(cleanText).max(100).optional(),
    leftOutMore: z.literal(true).optional(),
  }),
  z.strictObject({ skipped: cleanText, turn: step }),
]);

// Undo and redo (runtime/revert.ts, seat session.revert): which turns, and the work tree's
// snapshot once their files were put back (what a hand edit is told from afterwards).
const turnsReverted = z.strictObject({ turns: z.array(step).min(1), tree: gitTree.optional() });

/**
 * Event type -> the schema of its data. The names are the stored `type` column. This is where an
 * event type is declared: its data's type is inferred from it (events.ts EventMap), so the type
 * the writers and readers use and the check an import passes cannot drift apart.
 */
export const EVENT_SCHEMAS = {
  "session.created": created,
  "session.title": z.strictObject({ title: cleanText }),
  [EV.user]: userMessage,
  [EV.notice]: notice,
  [EV.assistant]: assistantMessage,
  [EV.callStarted]: callStarted,
  [EV.callFinished]: callFinished,
  [EV.callInterrupted]: callRef,
  [EV.callCancelled]: callRef,
  [EV.turnEnded]: turnEnded,
  [DECISION_EVENT]: decision,
  [USAGE_EVENT]: usage,
  // compaction/checkpoint.ts CHECKPOINT_EVENT (compaction sits above this layer).
  "compaction.checkpoint": checkpoint,
  // runtime/open.ts: what the file tracker saw, so a resumed session keeps its reads.
  "file.seen": fileSeen,
  // session/turns.ts: the work tree's snapshots, and turns undone and redone.
  "files.snapshot": filesSnapshot,
  "turn.reverted": turnsReverted,
  "turn.restored": turnsReverted,
} as const satisfies Record<string, z.ZodType>;

// A decision's data keeps the Decision type of contracts/ (seats/, below this layer, writes and
// reads it); the schema must accept every Decision, and know every key one may carry.
type Accepts<Schema extends z.ZodType, Written> = [Written] extends [z.infer<Schema>]
  ? [Exclude<keyof Written, keyof z.infer<Schema>>] extends [never]
    ? true
    : never
  : never;
// A tool call as the model wrote it is contracts/ ModelToolCall (the model layer makes them).
const _typesAgree: [Accepts<typeof decision, Decision>, Accepts<typeof toolCall, ModelToolCall>] = [true, true];
void _typesAgree;

/**
 * Why `data` is not what bosun stores under `type` — "data.input: expected record, received
 * string" — or undefined when it is. An unknown type is refused: nothing reads it, and nothing
 * could tell it from a typo.
 */
export function eventProblem(type: string, data: unknown): string | undefined {
  const schemas: Readonly<Partial<Record<string, z.ZodType>>> = EVENT_SCHEMAS;
  // Own keys only: "toString" is not an event type either.
  const schema = Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (!schema) return `"${type}" is not an event type this bosun records`;
  const parsed = schema.safeParse(data, { reportInput: true });
  if (parsed.success) return undefined;
  return describeIssue(parsed.error.issues[0] as z.core.$ZodIssue, ["data"]);
}

/** `data.toolCalls[0].id`: where a person would look in the file. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === "number") return `${out}[${key}]`;
    return out === "" ? String(key) : `${out}.${String(key)}`;
  }, "");
}

/** One issue as "where: what", in words a person reads ("missing", "expected string, not number"). */
function describeIssue(issue: z.core.$ZodIssue, at: PropertyKey[]): string {
  const path = [...at, ...issue.path];
  // A union's own message ("Invalid input") says nothing; its first branch says what was wrong.
  const branch = issue.code === "invalid_union" ? issue.errors[0]?.[0] : undefined;
  if (branch) return describeIssue(branch, path);
  const absent = "input" in issue && issue.input === undefined && issue.code !== "custom";
  const words = absent
    ? "missing"
    : issue.message
        .replace(/^Invalid input: expected (\w+), received (\w+)$/, "expected $1, not $2")
        .replace(/^expected record\b/, "expected object");
  return `${fieldPath(path)}: ${words}`;
}
