import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import { measureConversation } from "../compaction/trigger.js";
import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import { EV } from "../session/events.js";
import { sqliteJournal } from "../session/journal.js";
import { openSession } from "../session/open.js";
import { SessionStore } from "../store/session-store.js";
import { clockTime } from "../util/time.js";
import type { RequestOptions, RequestResult } from "./request.js";
import { type ResolvedModel, resolveModel } from "./resolve.js";
import {
  cleanTitle,
  decideTitle,
  defaultTitle,
  fallbackTitle,
  TITLE_SYSTEM,
  type TitleDeps,
  titleSession,
} from "./title.js";

const provider = { scripted: { type: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", apiKey: "k" } };
const MESSAGE = "the test in test/flaky.test.ts fails one time in ten, find out why and fix it";

function resolved(config: LoadedConfig, ref: string): ResolvedModel {
  const resolution = resolveModel(ref, config, {});
  assert.ok(resolution.ok);
  return resolution.model;
}

type Reply = string | { fail: string } | { throws: string } | "abort";

/** A requestModel that answers with `reply` and remembers what it was asked. */
function scripted(reply: Reply) {
  const asked: RequestOptions[] = [];
  const request = async (options: RequestOptions): Promise<RequestResult> => {
    asked.push(options);
    const base = { model: options.model, toolCalls: [], attempts: 1 };
    if (reply === "abort") {
      // A request in flight holds a socket open; this one holds a timer, or the test process
      // would end while it waits (AbortSignal.timeout's timer keeps nothing alive).
      const inFlight = setInterval(() => {}, 1000);
      await new Promise((resolve) => options.signal?.addEventListener("abort", resolve, { once: true }));
      clearInterval(inFlight);
      return { ...base, text: "", status: "aborted" };
    }
    if (typeof reply !== "string") {
      if ("throws" in reply) throw new TypeError(reply.throws);
      return { ...base, text: "", status: "failed", error: { class: "server_error", message: reply.fail } };
    }
    const usage = { input: 120, output: 6, cacheRead: 0, cacheWrite: 0 };
    options.onUsage?.(options.model, usage);
    return { ...base, text: reply, status: "complete", finishReason: "stop", usage };
  };
  return { asked, request: request as TitleDeps["requestModel"] & object };
}

/** The config of most tests: small_model set, so a model writes titles. */
const withSmall = () => configFrom({ provider, model: "scripted/m", small_model: "scripted/tiny" });

/** When the sessions in these tests began: the default title ends with its time. */
const STARTED = Date.UTC(2026, 11, 2, 14, 5);

function deps(request: TitleDeps["requestModel"], extra: Partial<TitleDeps> = {}): TitleDeps {
  const config = extra.config ?? withSmall();
  return {
    model: resolved(config, "scripted/m"),
    config,
    record: () => {},
    requestModel: request,
    env: {},
    startedAt: STARTED,
    ...extra,
  };
}

const detail = (answer: { reasons: Array<{ rule: string; detail?: string }> }, rule: string) =>
  answer.reasons.find((r) => r.rule === rule)?.detail;

describe("cleanTitle", () => {
  it("trims, strips surrounding quotes and a trailing period, collapses whitespace", () => {
    assert.deepEqual(cleanTitle('  "Fixing the flaky test."  '), {
      title: "Fixing the flaky test",
      words: 4,
      cut: false,
    });
    assert.equal(cleanTitle("“Fixing  the\n flaky test”.")?.title, "Fixing the flaky test");
    assert.equal(cleanTitle("'`Add login`'")?.title, "Add login");
    assert.equal(cleanTitle("Rename the config loader")?.title, "Rename the config loader");
  });

  it("keeps an ellipsis and inner quotes", () => {
    assert.equal(cleanTitle("Wait for it...")?.title, "Wait for it...");
    assert.equal(cleanTitle('Fix "bosun why" output')?.title, 'Fix "bosun why" output');
  });

  it("gives nothing for an empty reply", () => {
    assert.equal(cleanTitle(""), undefined);
    assert.equal(cleanTitle('  "" . '), undefined);
  });

  it("cuts past 80 characters at a word, with …, and counts the words", () => {
    const long = "Investigate intermittently failing continuous integration pipeline synchronisation regressions";
    const cleaned = cleanTitle(long);
    assert.ok(cleaned);
    assert.equal(cleaned.cut, true);
    assert.equal(cleaned.words, 8);
    assert.ok(cleaned.title.length <= 80, cleaned.title);
    assert.equal(cleaned.title, "Investigate intermittently failing continuous integration pipeline…");
  });
});

describe("defaultTitle", () => {
  it("is the first words, then the session's start on the machine's clock", () => {
    assert.equal(defaultTitle("fix  the\ntest", STARTED), `fix the test · ${clockTime(STARTED)}`);
    assert.match(defaultTitle("fix the test", STARTED), / · \d{2}:\d{2}$/);
  });
});

describe("fallbackTitle", () => {
  it("keeps a short message whole", () => {
    assert.equal(fallbackTitle("fix  the\ntest"), "fix the test");
  });

  it("keeps the first six words, with … when cut", () => {
    assert.equal(fallbackTitle(MESSAGE), "the test in test/flaky.test.ts fails one…");
  });

  it("keeps at most 50 characters", () => {
    const title = fallbackTitle(`please look at ${"x".repeat(80)} now`);
    assert.ok(title.length <= 50, title);
    assert.equal(title, "please look at…");
    assert.equal(fallbackTitle("y".repeat(70)), `${"y".repeat(49)}…`);
  });

  it("leaves out a fenced block (what was piped in): the title is the person's words", () => {
    assert.equal(fallbackTitle("review this\n\n```stdin\ndiff --git a/x b/x\n```"), "review this");
    assert.equal(fallbackTitle("see\n\n````stdin\n```js\nx\n```\n````"), "see");
    // A message that is only a block keeps its words: a title is never empty.
    assert.equal(fallbackTitle("```\nnpm ERR! missing script\n```"), "``` npm ERR! missing script ```");
  });
});

describe("decideTitle (seat session.title)", () => {
  it("uses small_model's title: one request, no tools, the title prompt, one attempt", async () => {
    const { asked, request } = scripted('"Fixing the flaky test."');
    const answer = await decideTitle(MESSAGE, deps(request));
    assert.equal(answer.holder, "model");
    assert.equal(answer.answer, "Fixing the flaky test");
    const reason = answer.reasons.find((r) => r.rule === "title model");
    assert.equal(reason?.detail, "scripted/tiny");
    assert.equal(reason?.key, "small_model");
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.model.ref, "scripted/tiny");
    const sent = asked[0] as RequestOptions;
    assert.equal(sent.tools, undefined);
    assert.equal(sent.system, TITLE_SYSTEM);
    assert.match(JSON.stringify(sent.messages), /flaky\.test\.ts fails one time in ten/);
    assert.equal(sent.config.config.retry?.max_attempts, 1);
    assert.ok(sent.signal, "a timeout signal");
  });

  it("without small_model nothing is asked: the session's model is not spent on titles", async () => {
    const config = configFrom({ provider, model: "scripted/m" });
    const { asked, request } = scripted("Fixing the flaky test");
    const answer = await decideTitle(MESSAGE, deps(request, { config }));
    assert.equal(asked.length, 0);
    assert.equal(answer.holder, "code");
    assert.equal(answer.answer, defaultTitle(MESSAGE, STARTED));
    assert.equal(detail(answer, "model's title not used"), "small_model is not set: no request was made");
    assert.match(detail(answer, "no small_model") ?? "", /scripted\/m/);
  });

  it("a small_model that cannot be used is a recorded failure, not a switch: no request, the fallback", async () => {
    const config = configFrom({ provider, model: "scripted/m", small_model: "nowhere/tiny" });
    const { asked, request } = scripted("Fixing the flaky test");
    const answer = await decideTitle(MESSAGE, deps(request, { config }));
    assert.equal(asked.length, 0);
    assert.equal(answer.holder, "code");
    assert.equal(answer.answer, defaultTitle(MESSAGE, STARTED));
    assert.match(detail(answer, "small_model cannot be used") ?? "", /"nowhere\/tiny": unknown provider "nowhere"/);
    assert.equal(detail(answer, "model's title not used"), "small_model cannot be used: no request was made");
  });

  it("an empty reply keeps the first words of the message", async () => {
    const answer = await decideTitle(MESSAGE, deps(scripted(' "" ').request));
    assert.equal(answer.holder, "code");
    assert.equal(answer.answer, `the test in test/flaky.test.ts fails one… · ${clockTime(STARTED)}`);
    assert.equal(detail(answer, "model's title not used"), "empty");
  });

  it("a failed request keeps the fallback and says why", async () => {
    const answer = await decideTitle(MESSAGE, deps(scripted({ fail: "overloaded" }).request));
    assert.equal(answer.holder, "code");
    assert.equal(answer.answer, defaultTitle(MESSAGE, STARTED));
    assert.equal(detail(answer, "model's title not used"), "server_error: overloaded");
    assert.equal(detail(answer, "title model"), "scripted/tiny");
  });

  it("a request that throws keeps the fallback and says why", async () => {
    const answer = await decideTitle(MESSAGE, deps(scripted({ throws: "no provider package" }).request));
    assert.equal(answer.holder, "code");
    assert.equal(detail(answer, "model's title not used"), "TypeError: no provider package");
  });

  it("gives up after the timeout; a cancelled run is told apart", async () => {
    const late = await decideTitle(MESSAGE, deps(scripted("abort").request, { timeoutMs: 20 }));
    assert.equal(late.holder, "code");
    assert.equal(detail(late, "model's title not used"), "no answer within 0.02 s");
    const controller = new AbortController();
    const pending = decideTitle(MESSAGE, deps(scripted("abort").request, { signal: controller.signal }));
    controller.abort(new Error("cancelled by SIGINT"));
    assert.equal(detail(await pending, "model's title not used"), "cancelled with the run");
  });

  it("cuts an over-long title; refuses one of more than eight words", async () => {
    const long = await decideTitle(
      MESSAGE,
      deps(scripted("Investigate intermittently failing continuous integration pipeline synchronisation").request),
    );
    assert.equal(long.holder, "model");
    assert.ok(long.answer.length <= 80);
    assert.ok(long.answer.endsWith("…"));
    assert.match(detail(long, "title checked") ?? "", /cut to 80 characters/);

    const wordy = await decideTitle(
      MESSAGE,
      deps(scripted("This session is about fixing the flaky test in the suite").request),
    );
    assert.equal(wordy.holder, "code");
    assert.match(detail(wordy, "model's title not used") ?? "", /^11 words, more than 8/);
  });
});

describe("titleSession", () => {
  let dir: string;
  let store: SessionStore;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "bosun-title-"));
    store = SessionStore.open(join(dir, "bosun.db"));
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const config = withSmall();
  const open = (flags: { session?: string } = {}, title?: string) =>
    openSession(store, { directory: dir, flags, config, ...(title !== undefined ? { title } : {}) });
  const input = (sessionId: string, request: TitleDeps["requestModel"], extra: { flagTitle?: string } = {}) => ({
    ...deps(request, { config }),
    store,
    sessionId,
    message: MESSAGE,
    record: (decision: Decision) => {
      recordDecision(store, sessionId, decision);
    },
    ...extra,
  });

  it("names a new session with the model's title, records it, and marks the request's usage", async () => {
    const session = open({}, "the test in test/flaky.test.ts");
    await titleSession(input(session.id, scripted("Fixing the flaky test").request));
    assert.equal(store.get(session.id)?.title, "Fixing the flaky test");
    const decision = expectDecision(
      readDecisions(store, session.id),
      "session.title",
      "model",
      "Fixing the flaky test",
    );
    assert.ok(decision.reasons.some((r) => r.detail === "scripted/tiny"));
    const usage = sqliteJournal(store, session.id).events("model.usage");
    assert.deepEqual(
      usage.map((e) => e.data.for),
      ["session.title"],
    );
    // The title request measured the title prompt, not the conversation.
    assert.equal(measureConversation(store.events(session.id)).lastInputTokens, undefined);
  });

  it("keeps the fallback when the request fails", async () => {
    const session = open({}, "first line");
    await titleSession(input(session.id, scripted({ fail: "boom" }).request));
    // The time is the session's own start, not the moment the title was decided.
    const expected = defaultTitle(MESSAGE, session.created);
    assert.notEqual(session.created, STARTED);
    assert.equal(store.get(session.id)?.title, expected);
    const decision = expectDecision(readDecisions(store, session.id), "session.title", "code", expected);
    assert.ok(decision.reasons.some((r) => r.detail === "server_error: boom"));
  });

  it("with --title the person's title stands and nothing is asked", async () => {
    const session = open({}, "My own title");
    const { asked, request } = scripted("Fixing the flaky test");
    await titleSession(input(session.id, request, { flagTitle: "My own title" }));
    assert.equal(asked.length, 0);
    assert.equal(store.get(session.id)?.title, "My own title");
    expectDecision(readDecisions(store, session.id), "session.title", "person", "My own title");
  });

  it("a resumed session keeps its title: no request, no decision", async () => {
    const first = open({}, "Original title");
    store.append(first.id, EV.user, { text: "the conversation so far" });
    const resumed = open({ session: first.id });
    const { asked, request } = scripted("Fixing the flaky test");
    await titleSession(input(resumed.id, request));
    assert.equal(asked.length, 0);
    assert.equal(store.get(first.id)?.title, "Original title");
    assert.ok(!readDecisions(store, first.id).some((d) => d.seat === "session.title"));
  });

  it("a new session opened again before its first turn (a custom command's own model) is named by that turn", async () => {
    const created = open({});
    const reopened = open({ session: created.id });
    const { asked, request } = scripted("Reviewing the parser");
    await titleSession(input(reopened.id, request));
    assert.equal(asked.length, 1);
    assert.equal(store.get(created.id)?.title, "Reviewing the parser");
    expectDecision(readDecisions(store, created.id), "session.title", "model", "Reviewing the parser");
  });
});
