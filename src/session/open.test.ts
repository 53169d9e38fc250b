import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import { type LoadedConfig, loadConfig } from "../config/load.js";
import { UsageError } from "../errors.js";
import { readDecisions } from "../seats/record.js";
import { SessionStore } from "../store/session-store.js";
import { sqliteJournal } from "./journal.js";
import { openSession } from "./open.js";

describe("openSession", () => {
  let root: string;
  let work: string;
  let store: SessionStore;
  let config: LoadedConfig;
  let clock = 1_700_000_000_000;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "bosun-open-"));
    work = join(root, "work");
    mkdirSync(work);
    writeFileSync(join(work, "bosun.json"), '{ "model": "a/b" }');
    config = loadConfig({ cwd: work, env: { BOSUN_HOME: join(root, "home") } });
    store = SessionStore.open(join(root, "bosun.db"), () => clock++);
  });
  afterEach(() => {
    store.close();
    rmSync(root, { recursive: true, force: true });
  });

  const targetOf = (id: string) => readDecisions(store, id).filter((d) => d.seat === "session.target");

  it("creates a new session and records session.target (code) and config.load", () => {
    const session = openSession(store, { directory: work, flags: {}, config, title: "hello" });
    assert.equal(session.title, "hello");
    const decisions = readDecisions(store, session.id);
    assert.deepEqual(
      decisions.map((d) => [d.seat, d.holder]),
      [
        ["session.target", "code"],
        ["config.load", "code"],
      ],
    );
    expectDecision(decisions, "session.target", "code", { mode: "new" });
  });

  it("records which config layers were read and which were absent", () => {
    const session = openSession(store, { directory: work, flags: {}, config });
    const load = expectDecision(readDecisions(store, session.id), "config.load", "code", [
      "default:built-in",
      `project:${join(work, "bosun.json")}`,
    ]);
    const globalFile = join(root, "home", "bosun.json");
    assert.ok(load?.reasons.some((r) => r.source === globalFile && r.detail === "absent"));
    assert.match(load?.reasons[0]?.detail ?? "", /absent: .*home\/bosun\.json/);
  });

  it("records unresolved references in config.load", () => {
    writeFileSync(join(work, "bosun.json"), '{ "provider": { "openai": { "apiKey": "{env:NO_SUCH_KEY}" } } }');
    const withRef = loadConfig({ cwd: work, env: { BOSUN_HOME: join(root, "home") } });
    const session = openSession(store, { directory: work, flags: {}, config: withRef });
    const load = readDecisions(store, session.id).find((d) => d.seat === "config.load");
    const unresolved = load?.reasons.find((r) => r.rule === "unresolved reference");
    assert.equal(unresolved?.key, "provider.openai.apiKey");
    assert.match(unresolved?.detail ?? "", /NO_SUCH_KEY is not set; key left unset$/);
  });

  it("says a defaulted key whose reference does not resolve keeps its default", () => {
    writeFileSync(join(work, "bosun.json"), '{ "max_steps": "{env:NO_SUCH_STEPS}" }');
    const withRef = loadConfig({ cwd: work, env: { BOSUN_HOME: join(root, "home") } });
    const session = openSession(store, { directory: work, flags: {}, config: withRef });
    const load = readDecisions(store, session.id).find((d) => d.seat === "config.load");
    const unresolved = load?.reasons.find((r) => r.rule === "unresolved reference");
    assert.equal(unresolved?.key, "max_steps");
    assert.match(unresolved?.detail ?? "", /NO_SUCH_STEPS is not set; its default applies$/);
  });

  it("records references by what was written, never the value", () => {
    writeFileSync(
      join(work, "bosun.json"),
      '{ "provider": { "a": { "apiKey": "{env:REAL_KEY}" }, "b": { "apiKey": "sk-LIT-{env:REAL_KEY}" } } }',
    );
    const withRefs = loadConfig({ cwd: work, env: { BOSUN_HOME: join(root, "home"), REAL_KEY: "sk-real-value-77" } });
    const session = openSession(store, { directory: work, flags: {}, config: withRefs });
    const load = expectDecision(readDecisions(store, session.id), "config.load", "code");
    const refs = load.reasons.filter((r) => r.rule === "reference resolved");
    assert.deepEqual(
      refs.map((r) => [r.key, r.detail]),
      [
        ["provider.a.apiKey", "{env:REAL_KEY}"],
        ["provider.b.apiKey", "<redacted>"],
      ],
    );
    assert.ok(!JSON.stringify(store.events(session.id)).includes("sk-real-value-77"));
    assert.ok(!JSON.stringify(store.events(session.id)).includes("sk-LIT"));
  });

  it("continues the latest top-level session in this directory (person)", () => {
    const first = openSession(store, { directory: work, flags: {}, config });
    const second = openSession(store, { directory: work, flags: {}, config });
    store.create({ directory: work, parentId: second.id });
    store.create({ directory: join(root, "other") });
    const continued = openSession(store, { directory: work, flags: { continue: true }, config });
    assert.equal(continued.id, second.id);
    assert.notEqual(continued.id, first.id);
    const targets = targetOf(second.id);
    assert.equal(targets.length, 2);
    assert.equal(targets[1]?.holder, "person");
    assert.deepEqual(targets[1]?.answer, { mode: "continue", session: second.id });
  });

  it("continues the latest session with a message, not a newer one left before its first message", () => {
    const talked = openSession(store, { directory: work, flags: {}, config });
    store.append(talked.id, "message.user", { text: "fix the test" });
    // `bosun` opened and quit at once: a session with no message, newer than the conversation.
    const empty = openSession(store, { directory: work, flags: {}, config });
    const continued = openSession(store, { directory: work, flags: { continue: true }, config });
    assert.equal(continued.id, talked.id);
    assert.notEqual(continued.id, empty.id);
    expectDecision(targetOf(talked.id).slice(1), "session.target", "person", { mode: "continue", session: talked.id });
  });

  it("refuses --continue where there is no session, creating nothing", () => {
    assert.throws(
      () => openSession(store, { directory: work, flags: { continue: true }, config }),
      /no session to continue/,
    );
    assert.equal(store.list().length, 0);
  });

  it("resumes by id prefix or title (person)", () => {
    const made = openSession(store, { directory: work, flags: {}, config, title: "refactor parser" });
    const byTitle = openSession(store, { directory: work, flags: { session: "refactor parser" }, config });
    assert.equal(byTitle.id, made.id);
    const byPrefix = openSession(store, {
      directory: work,
      flags: { session: made.id.slice(0, 20).toLowerCase() },
      config,
    });
    assert.equal(byPrefix.id, made.id);
    const targets = targetOf(made.id);
    assert.deepEqual(targets.at(-1)?.answer, { mode: "resume", session: made.id });
    assert.equal(targets.at(-1)?.holder, "person");
  });

  it("refuses an unknown session instead of starting a new one", () => {
    openSession(store, { directory: work, flags: {}, config, title: "one" });
    assert.throws(() => openSession(store, { directory: work, flags: { session: "nope" }, config }), UsageError);
    assert.equal(store.list().length, 1);
  });

  it("gives a fork its own title even when the original was renamed", () => {
    const original = openSession(store, { directory: work, flags: {}, config, title: "first name" });
    store.setTitle(original.id, "renamed");
    const fork = openSession(store, {
      directory: work,
      flags: { session: "renamed", fork: true },
      config,
      title: "mine",
    });
    assert.equal(store.get(fork.id)?.title, "mine");
    assert.ok(!store.events(fork.id).some((e) => e.type === "session.title"));
    const created = sqliteJournal(store, fork.id).events("session.created")[0]?.data;
    assert.equal(created?.forked_at_seq, store.events(original.id).at(-1)?.seq);
  });

  it("forks: a new session with the original's events, the original untouched", () => {
    const original = openSession(store, { directory: work, flags: {}, config, title: "base" });
    store.append(original.id, "message", { role: "user", text: "hi" });
    const before = store.events(original.id);
    const fork = openSession(store, { directory: work, flags: { session: original.id, fork: true }, config });
    assert.notEqual(fork.id, original.id);
    assert.equal(fork.title, "base (fork)");
    assert.deepEqual(store.events(original.id), before);
    const forkEvents = store.events(fork.id);
    assert.deepEqual(forkEvents[0]?.data, {
      title: "base (fork)",
      directory: work,
      parent: original.id,
      forked_from: original.id,
      forked_at_seq: before.at(-1)?.seq,
      copied: before.length - 1,
    });
    // Copies keep the time they first happened.
    const originalMessage = before.find((e) => e.type === "message");
    assert.equal(forkEvents.find((e) => e.type === "message")?.at, originalMessage?.at);
    assert.ok(forkEvents.some((e) => e.type === "message" && (e.data as { text: string }).text === "hi"));
    expectDecision(targetOf(fork.id), "session.target", "person", { mode: "fork", from: original.id });
    assert.equal(store.get(fork.id)?.parentId, original.id, "a fork's parent is its original");
  });

  it("continues the latest fork the person made, but never a delegate's session", () => {
    const original = openSession(store, { directory: work, flags: {}, config });
    const fork = openSession(store, { directory: work, flags: { session: original.id, fork: true }, config });
    assert.equal(openSession(store, { directory: work, flags: { continue: true }, config }).id, fork.id);
    // A delegate's session: a child with no forked_from, newer than both.
    store.create({ directory: work, parentId: fork.id });
    assert.equal(openSession(store, { directory: work, flags: { continue: true }, config }).id, fork.id);
  });

  it("records a session with its repository's root, so --continue from any subfolder finds it", () => {
    mkdirSync(join(work, ".git"));
    const deep = join(work, "src", "deep");
    mkdirSync(deep, { recursive: true });
    const started = openSession(store, { directory: deep, flags: {}, config });
    assert.equal(started.directory, work);
    const other = join(work, "docs");
    mkdirSync(other);
    const continued = openSession(store, { directory: other, flags: { continue: true }, config });
    assert.equal(continued.id, started.id);
    expectDecision(targetOf(started.id).slice(1), "session.target", "person", {
      mode: "continue",
      session: started.id,
    });
    // A session an older bosun recorded with the subfolder itself is still found from there.
    const older = store.create({ directory: other });
    assert.equal(openSession(store, { directory: other, flags: { continue: true }, config }).id, older.id);
  });
});
