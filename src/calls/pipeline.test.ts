import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { approveAuthority } from "../../test/support/authority.js";
import { expectDecision } from "../../test/support/ledger.js";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import type { Decision } from "../contracts/decisions.js";
import type { GateDeps } from "../permission/gate/gate.js";
import { hooksFromConfig } from "../permission/gate/hooks.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import { type CallFinished, EV } from "../session/events.js";
import { SessionStore } from "../store/session-store.js";
import { createFileTracker } from "../tools/file-tracker.js";
import { builtinTools } from "../tools/registry.js";
import { callPipeline, type PipelineDeps } from "./pipeline.js";
import { sessionRecorder } from "./recorder.js";

const temp = tempFolder("pipeline");

/** A session in a temporary store, the built-in tools, and a gate that allows reads (approve mode). */
function setUp(change: Partial<PipelineDeps> = {}) {
  const ws = temp.path;
  const home = join(ws, ".home");
  mkdirSync(join(ws, ".git"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(home, "bosun.json"), "{}");
  const { config, authority } = approveAuthority(ws, home);
  const store = SessionStore.open(join(home, "bosun.db"));
  const id = store.create({ directory: ws, title: "calls" }).id;
  const signal = new AbortController().signal;
  const gate: GateDeps = {
    authority,
    policy: { rules: [], files: [] },
    hooks: hooksFromConfig(config),
    auto: false,
    sandbox: "off",
    visible: [ws],
    saveAlways() {},
    record: (decision: Decision) => recordDecision(store, id, decision),
    sessionId: id,
    signal,
  };
  const { callId: _, signal: __, ...context } = toolContext(ws, { files: createFileTracker({ cwd: ws }) });
  const opened: Array<{ path: string; call: string; finishedBefore: boolean }> = [];
  const pipeline = callPipeline({
    tools: builtinTools(),
    gate: () => gate,
    recorder: sessionRecorder(store, id),
    bounds: { maxLines: 5, maxBytes: 50_000, overflowDir: join(home, "overflow") },
    signal,
    toolContext: context,
    parallel: 4,
    repeatLimit: 3,
    onOpened: (path, subject) =>
      opened.push({
        path,
        call: subject.call,
        finishedBefore: store.events(id, EV.callFinished).some((e) => (e.data as CallFinished).id === subject.call),
      }),
    ...change,
  });
  return { ws, store, id, pipeline, opened };
}

describe("callPipeline", () => {
  it("runs a read: on record before it runs, its output bounded (exec.truncate), the file it opened told after its result", async () => {
    const s = setUp();
    try {
      temp.put("long.txt", Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n"));
      const outcome = await s.pipeline.run([{ id: "r1", name: "read", input: { path: "long.txt" } }], 1);
      assert.deepEqual(outcome, { denied: 0 });
      const types = s.store.events(s.id).map((e) => e.type);
      assert.ok(types.indexOf(EV.callStarted) < types.indexOf(EV.callFinished));
      const finished = s.store.events(s.id, EV.callFinished)[0]?.data as CallFinished;
      assert.match(finished.output, /line 1\n/);
      assert.match(finished.output, /\[Output truncated: the last/);
      const truncate = expectDecision(readDecisions(s.store, s.id), "exec.truncate", "config");
      assert.deepEqual(truncate.subject, { step: 1, call: "r1" });
      assert.deepEqual(s.opened, [{ path: join(s.ws, "long.txt"), call: "r1", finishedBefore: true }]);
    } finally {
      s.store.close();
    }
  });

  it("refuses a call it cannot prepare without running it, and tells no file opened", async () => {
    const s = setUp();
    try {
      const outcome = await s.pipeline.run([{ id: "x", name: "no_such_tool", input: {} }], 1);
      assert.deepEqual(outcome, { denied: 0 });
      assert.equal(s.store.events(s.id, EV.callStarted).length, 0);
      const finished = s.store.events(s.id, EV.callFinished)[0]?.data as CallFinished | undefined;
      assert.equal(finished?.isError, true);
      assert.match(finished?.output ?? "", /Unknown tool "no_such_tool"/);
      assert.deepEqual(s.opened, []);
    } finally {
      s.store.close();
    }
  });

  it("remembers the turn's calls: the same call repeated stops the turn (call.repeat)", async () => {
    const s = setUp({ repeatLimit: 2 });
    try {
      temp.put("a.txt", "a\n");
      const call = { id: "r", name: "read", input: { path: "a.txt" } };
      assert.deepEqual(await s.pipeline.run([call], 1), { denied: 0 });
      const second = await s.pipeline.run([{ ...call, id: "r2" }], 2);
      assert.equal(second.stop?.status, "repeat");
      expectDecision(readDecisions(s.store, s.id), "call.repeat", "code", "stop");
      assert.equal(s.store.events(s.id, EV.callStarted).length, 1, "the repeated call did not run");
    } finally {
      s.store.close();
    }
  });
});
