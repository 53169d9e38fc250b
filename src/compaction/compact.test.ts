import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ModelMessage } from "ai";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import type { LoadedConfig } from "../config/load.js";
import type { RequestOptions, RequestResult } from "../model/request.js";
import { type ResolvedModel, resolveModel } from "../model/resolve.js";
import { summarizeUsage } from "../model/session-usage.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import { EV } from "../session/events.js";
import { sqliteJournal } from "../session/journal.js";
import { SessionStore } from "../store/session-store.js";
import { applyCheckpoint, CHECKPOINT_EVENT, SUMMARY_PREFIX } from "./checkpoint.js";
import { type CompactDeps, compactSession } from "./compact.js";
import { SUMMARY_INSTRUCTION, SUMMARY_SYSTEM } from "./summary.js";

const GOOD = [
  "## Goal",
  "Fix add().",
  "## Decisions",
  "Edit the code, not the test.",
  "## State of work",
  "Fixed; tests pass.",
  "## Next step",
  "Tell the person.",
  "## Relevant files",
  "- math.js",
].join("\n");
const NO_NEXT = GOOD.replace("## Next step\nTell the person.\n", "");

const provider = { scripted: { type: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", apiKey: "k" } };

let dir: string;
let store: SessionStore;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "bosun-compact-"));
  store = SessionStore.open(join(dir, "bosun.db"));
});
after(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function resolved(config: LoadedConfig, ref: string): ResolvedModel {
  const resolution = resolveModel(ref, config, {});
  assert.ok(resolution.ok);
  return resolution.model;
}

/** A requestModel that answers with the given texts in turn and remembers what it was asked. */
function scripted(...replies: Array<string | { fail: string }>) {
  const asked: RequestOptions[] = [];
  const request = async (options: RequestOptions): Promise<RequestResult> => {
    asked.push(options);
    const reply = replies[asked.length - 1] ?? replies.at(-1) ?? "";
    const base = { model: options.model, toolCalls: [], attempts: 1 };
    if (typeof reply !== "string") {
      return { ...base, text: "", status: "failed", error: { class: "authentication", message: reply.fail } };
    }
    const usage = { input: 5_000, output: 300, cacheRead: 0, cacheWrite: 0 };
    options.onUsage?.(options.model, usage);
    return { ...base, text: reply, status: "complete", finishReason: "stop", usage };
  };
  return { asked, request: request as CompactDeps["requestModel"] & object };
}

/** A session with three exchanges; the first has a big tool output. */
function session() {
  const s = store.create({ directory: dir });
  const assistant = (text: string, calls: Array<{ id: string }> = []) =>
    store.append(s.id, EV.assistant, {
      text,
      toolCalls: calls.map((c) => ({ id: c.id, name: "read", input: { path: "math.js" } })),
      finish: calls.length ? "tool-calls" : "stop",
      model: "scripted/m",
      step: 1,
      status: "complete",
    });
  store.append(s.id, EV.user, { text: "fix add" });
  assistant("Looking.", [{ id: "c1" }]);
  store.append(s.id, EV.callStarted, { id: "c1", name: "read", input: { path: "math.js" }, step: 1 });
  store.append(s.id, EV.callFinished, {
    id: "c1",
    name: "read",
    output: "x".repeat(40_000),
    isError: false,
    summary: "s",
  });
  assistant("Fixed it.");
  store.append(s.id, EV.user, { text: "now the docs" });
  assistant("Docs updated.");
  const third = store.append(s.id, EV.user, { text: "and the changelog" });
  assistant("Changelog updated.");
  return { id: s.id, third: third.seq };
}

function deps(sessionId: string, request: CompactDeps["requestModel"], extra: Partial<CompactDeps> = {}): CompactDeps {
  const config = extra.config ?? configFrom({ provider, model: "scripted/m" });
  return {
    store,
    sessionId,
    model: resolved(config, "scripted/m"),
    config,
    record: (d) => recordDecision(store, sessionId, d),
    reason: "manual",
    keepTokens: 12,
    requestModel: request,
    env: {},
    ...extra,
  };
}

const texts = (messages: ModelMessage[]) => messages.map((m) => (typeof m.content === "string" ? m.content : m.role));

describe("compactSession (seat compaction.summary)", () => {
  it("summarises the older exchanges, appends a checkpoint, records the decision, deletes nothing", async () => {
    const { id, third } = session();
    const beforeEvents = store.events(id);
    const { asked, request } = scripted(GOOD);
    const result = await compactSession(deps(id, request, { step: 7 }));
    assert.ok(result.ok, result.ok ? "" : result.error);

    // One request, no tools, the summary system prompt, the conversation before the cut and the instruction last.
    assert.equal(asked.length, 1);
    const sent = asked[0] as RequestOptions;
    assert.equal(sent.tools, undefined);
    assert.equal(sent.system, SUMMARY_SYSTEM);
    assert.equal(sent.step, 7);
    const lines = texts(sent.messages);
    assert.equal(lines.at(-1), SUMMARY_INSTRUCTION);
    assert.deepEqual(lines.slice(0, 2), ["fix add", 'Looking.\n[call read c1] {"path":"math.js"}']);
    assert.ok(lines.includes("now the docs"));
    assert.ok(!lines.includes("and the changelog"), "the kept exchange is not summarised");

    const checkpoint = result.checkpoint;
    assert.equal(checkpoint.summary, GOOD);
    assert.equal(checkpoint.keptFrom, third);
    assert.equal(checkpoint.model, "scripted/m");
    assert.equal(checkpoint.reason, "manual");
    assert.ok(checkpoint.tokensBefore > 10_000, `before ${checkpoint.tokensBefore}`);
    assert.ok(checkpoint.tokensAfter < 200, `after ${checkpoint.tokensAfter}`);
    assert.equal(result.keptMessages, 2);

    const events = store.events(id);
    assert.deepEqual(events.slice(0, beforeEvents.length), beforeEvents, "every earlier event is still in the store");
    const stored = events.find((e) => e.type === CHECKPOINT_EVENT);
    assert.equal(stored?.seq, result.seq);
    assert.deepEqual(stored?.data, checkpoint);

    const decisions = readDecisions(store, id);
    const decision = expectDecision(decisions, "compaction.summary", "model", {
      tokensBefore: checkpoint.tokensBefore,
      tokensAfter: checkpoint.tokensAfter,
      kept_from: third,
      model: "scripted/m",
    });
    assert.deepEqual(decision.subject, { step: 7 });
    const reasons = decision.reasons.map((r) => `${r.rule}: ${r.detail}`).join("\n");
    assert.match(reasons, /summary model: scripted\/m \(the session's model\)/);
    assert.match(reasons, /sections checked: Goal, Decisions, State of work, Next step, Relevant files: all present/);
    assert.match(reasons, /compaction asked: manual/);

    // The model now reads the summary and the kept exchange.
    const view = applyCheckpoint(events);
    assert.deepEqual(view[0]?.data, { text: `${SUMMARY_PREFIX}${GOOD}` });
    assert.equal(view[1]?.seq, third);
    // The summary's tokens are the session's cost too, marked as the summary's.
    const usage = sqliteJournal(store, id).events("model.usage").at(-1)?.data;
    assert.equal(usage?.for, "compaction.summary");
    assert.equal(summarizeUsage(store, id).requests, 1);
  });

  it("asks once more, naming the missing section, and accepts a complete second reply", async () => {
    const { id } = session();
    const { asked, request } = scripted(NO_NEXT, GOOD);
    const result = await compactSession(deps(id, request));
    assert.ok(result.ok);
    assert.equal(asked.length, 2);
    const again = texts((asked[1] as RequestOptions).messages);
    assert.equal(again.at(-2), NO_NEXT);
    assert.match(again.at(-1) ?? "", /missing "## Next step"/);
    const decision = expectDecision(readDecisions(store, id), "compaction.summary", "model");
    assert.ok(decision.reasons.some((r) => r.rule === "sections missing" && /Next step/.test(r.detail ?? "")));
  });

  it("fails cleanly when the second reply still lacks a section: no checkpoint, a code decision", async () => {
    const { id } = session();
    const count = store.events(id).length;
    const { asked, request } = scripted(NO_NEXT, "just some prose");
    const result = await compactSession(deps(id, request));
    assert.equal(result.ok, false);
    assert.equal(asked.length, 2);
    if (result.ok) return;
    assert.match(
      result.error,
      /still lacks "## Goal", "## Decisions", "## State of work", "## Next step", "## Relevant files"/,
    );
    const events = store.events(id);
    assert.equal(
      events.filter((e) => e.type === CHECKPOINT_EVENT).length,
      0,
      "nothing replaces the history when the summary is not good enough",
    );
    assert.equal(events.filter((e) => e.seq <= count).length, count);
    const decision = expectDecision(readDecisions(store, id), "compaction.summary", "code", "failed");
    assert.equal(decision.reasons.filter((r) => r.rule === "sections missing").length, 2);
  });

  it("fails when the request fails", async () => {
    const { id } = session();
    const { request } = scripted({ fail: "bad key" });
    const result = await compactSession(deps(id, request));
    assert.deepEqual(result, { ok: false, error: "the summary request failed: authentication: bad key" });
    expectDecision(readDecisions(store, id), "compaction.summary", "code", "failed");
    assert.equal(store.events(id, CHECKPOINT_EVENT).length, 0);
  });

  it("says there is nothing to compact in a session without messages, and asks nothing", async () => {
    const s = store.create({ directory: dir });
    const { asked, request } = scripted(GOOD);
    const result = await compactSession(deps(s.id, request));
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.nothing, true);
    assert.equal(asked.length, 0);
    expectDecision(readDecisions(store, s.id), "compaction.summary", "code", "nothing");
  });

  it("includes the earlier summary when compacting again, and the latest checkpoint wins", async () => {
    const { id } = session();
    await compactSession(deps(id, scripted(GOOD).request));
    store.append(id, EV.user, { text: "one more thing" });
    store.append(id, EV.assistant, {
      text: "Done too.",
      toolCalls: [],
      finish: "stop",
      model: "scripted/m",
      step: 1,
      status: "complete",
    });
    const second = GOOD.replace("Fix add().", "Fix add(), docs, changelog.");
    const { asked, request } = scripted(second);
    const result = await compactSession(deps(id, request));
    assert.ok(result.ok);
    const lines = texts((asked[0] as RequestOptions).messages);
    assert.equal(lines[0], `${SUMMARY_PREFIX}${GOOD}`);
    assert.ok(!lines.includes("fix add"), "what the first summary covers is not sent again");
    assert.ok(lines.includes("and the changelog"));
    const view = applyCheckpoint(store.events(id));
    assert.deepEqual(view[0]?.data, { text: `${SUMMARY_PREFIX}${second}` });
    assert.equal(store.events(id, CHECKPOINT_EVENT).length, 2);
  });

  it("uses compaction.model when set, and fails on one that cannot be used", async () => {
    const config = configFrom({ provider, model: "scripted/m", compaction: { model: "scripted/small" } });
    const { id } = session();
    const { asked, request } = scripted(GOOD);
    const result = await compactSession(deps(id, request, { config }));
    assert.ok(result.ok);
    assert.equal(asked[0]?.model.ref, "scripted/small");
    assert.equal(sqliteJournal(store, id).events(CHECKPOINT_EVENT)[0]?.data.model, "scripted/small");
    const decision = expectDecision(readDecisions(store, id), "compaction.summary", "model");
    assert.equal(decision.reasons.find((r) => r.rule === "summary model")?.key, "compaction.model");

    const bad = configFrom({ provider, model: "scripted/m", compaction: { model: "nowhere/x" } });
    const other = session();
    const failed = await compactSession(deps(other.id, scripted(GOOD).request, { config: bad }));
    assert.equal(failed.ok, false);
    assert.match(failed.ok ? "" : failed.error, /compaction\.model "nowhere\/x" cannot be used: unknown provider/);
  });
});
