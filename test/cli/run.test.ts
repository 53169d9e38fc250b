import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario, waitFor } from "../support/scenario.js";

const done = { reply: { text: "All done." } };

describe("bosun run: a multi-step task", () => {
  it("reads, edits, runs the tests, finishes; streams text; records every decision", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { text: "Let me look.", toolCalls: [{ id: "c1", name: "read", arguments: { path: "math.js" } }] },
        },
        {
          match: { request: 2 },
          reply: {
            toolCalls: [
              { id: "c2", name: "edit", arguments: { path: "math.js", old_string: "a - b", new_string: "a + b" } },
            ],
          },
        },
        {
          match: { request: 3 },
          reply: { toolCalls: [{ id: "c3", name: "shell", arguments: { command: "node test.js" } }] },
        },
        { match: { request: 4, lastMessage: "sum ok" }, reply: { text: "Fixed add(): it subtracted. Tests pass." } },
      ],
    });
    try {
      s.ws.write("math.js", "export function add(a, b) {\n  return a - b;\n}\n");
      s.ws.write(
        "test.js",
        'import { add } from "./math.js";\nif (add(2, 3) !== 5) { console.log("sum wrong"); process.exit(1); }\nconsole.log("sum ok");\n',
      );
      s.ws.write("package.json", '{ "type": "module" }');
      const result = await s.run(["run", "--auto", "fix add"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "Let me look.\nFixed add(): it subtracted. Tests pass.\n");
      assert.match(result.stderr, /→ read \{"path":"math\.js"\}/);
      assert.match(result.stderr, /✓ shell `node test\.js`/);
      assert.equal(
        readFileSync(join(s.ws.dir, "math.js"), "utf8"),
        "export function add(a, b) {\n  return a + b;\n}\n",
      );
      const { decisions } = s.latest();
      expectDecision(decisions, "session.target", "code", { mode: "new" });
      expectDecision(decisions, "agent.select", "code", "build");
      expectDecision(decisions, "model.select", "config", "scripted/test-model");
      expectDecision(decisions, "call.permission", "code", "allow");
      expectDecision(decisions, "call.permission", "code", "ask");
      expectDecision(decisions, "call.approval", "code", "allow-once");
      expectDecision(decisions, "turn.done", "model", "done");
      // Each permission decision records what the call would do.
      const shellDecision = decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "c3");
      assert.equal(
        shellDecision?.reasons.find((r) => r.rule === "requests")?.detail,
        `shell:node test.js (writes), read:${join(s.ws.dir, "test.js")}`,
      );
      const readDecision = decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "c1");
      assert.match(readDecision?.reasons.find((r) => r.rule === "requests")?.detail ?? "", /^read:\/.*\/math\.js$/);
      const why = await s.run(["why", s.latest().id, "--seat", "call.*"], { env: { COLUMNS: "120" } });
      assert.match(
        why.stdout,
        /^ {4}call c2: edit math\.js\n(?: {6}.*\n)* {6}call\.approval +code +allow-once +approved in advance/m,
      );
    } finally {
      await s.close();
    }
  });

  it("prints one JSON event per line with --format json", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { id: "c1", name: "list", arguments: {} },
              { id: "c2", name: "read", arguments: { path: "missing.txt" } },
            ],
          },
        },
        done,
      ],
    });
    try {
      const result = await s.run(["run", "--format", "json", "look around"]);
      assert.equal(result.code, 0, result.stderr);
      const events = s.events(result);
      const types = events.map((e) => e.type);
      assert.ok(
        types.includes("tool_call") &&
          types.includes("tool_result") &&
          types.includes("decision") &&
          types.includes("text"),
      );
      const { v, seq, durationMs, usage, ...done } = (events.at(-1) ?? {}) as Record<string, unknown>;
      assert.deepEqual(done, {
        type: "done",
        status: "done",
        steps: 2,
        denied: 0,
        session: s.latest().id,
        exitCode: 0,
        result: "All done.",
        cost: null,
      });
      assert.equal(v, 1);
      assert.equal(seq, events.length);
      assert.equal(typeof durationMs, "number");
      assert.equal((usage as { requests: number }).requests, 2);
      const { seq: _, ...call } = (events.find((e) => e.type === "tool_call") ?? {}) as Record<string, unknown>;
      assert.deepEqual(call, { v: 1, type: "tool_call", session: s.latest().id, id: "c1", name: "list", input: {} });
      // A failed call carries its output as the detail a person would expand; a plain listing none.
      const results = events.filter((e) => e.type === "tool_result");
      assert.equal(results.find((e) => e.id === "c1")?.detail, undefined);
      assert.match(String(results.find((e) => e.id === "c2")?.detail), /missing\.txt/);
    } finally {
      await s.close();
    }
  });

  it("takes the message from stdin and attaches files", async () => {
    const s = await startScenario({ rules: [{ match: { anyMessage: "SECRET-FILE-TEXT" }, reply: { text: "Seen." } }] });
    try {
      s.ws.write("notes.txt", "SECRET-FILE-TEXT");
      const result = await s.run(["run", "-f", "notes.txt"], { input: "summarize the attachment" });
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        s.server.request(1).normalized?.messages.at(-1)?.text ?? "",
        /summarize the attachment[\s\S]*SECRET-FILE-TEXT/,
      );
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: broken and odd tool calls", () => {
  it("sends unreadable JSON back quoted, and the model continues", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { toolCalls: [{ id: "c1", name: "read", arguments: '{"path": "a.txt"' }] } },
        { match: { lastMessage: "not valid JSON" }, reply: { text: "Retried." } },
      ],
    });
    try {
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        s.server.request(2).normalized?.messages.at(-1)?.text ?? "",
        /not valid JSON[\s\S]*\{"path": "a\.txt"/,
      );
      expectDecision(s.latest().decisions, "call.parse", "code", "unreadable");
    } finally {
      await s.close();
    }
  });

  it("repairs an unambiguous call and records before and after", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { id: "c1", name: "functions.Read", arguments: { path: "a.txt", offset: "2" }, unadvertised: true },
            ],
          },
        },
        done,
      ],
    });
    try {
      s.ws.write("a.txt", "one\ntwo\nthree\n");
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(s.server.request(2).normalized?.messages.at(-1)?.text ?? "", /two/);
      const repair = expectDecision(s.latest().decisions, "call.repair", "code");
      assert.deepEqual(
        repair.reasons.map((r) => [r.rule, r.detail]),
        [
          ["tool name", "functions.Read -> read"],
          ["number from string", 'offset: "2" -> 2'],
        ],
      );
    } finally {
      await s.close();
    }
  });

  it("lists schema errors of an unrepairable call, and an unknown tool's alternatives", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { id: "c1", name: "read", arguments: { file: "a.txt" } },
              { id: "c2", name: "browse", arguments: { url: "x" }, unadvertised: true },
            ],
          },
        },
        done,
      ],
    });
    try {
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const sent =
        s.server
          .request(2)
          .normalized?.messages.filter((m) => m.role === "tool")
          .map((m) => m.text)
          .join("\n") ?? "";
      assert.match(sent, /Invalid arguments for read:[\s\S]*path/);
      assert.match(
        sent,
        /Unknown tool "browse"\. Available tools: read, list, glob, grep, edit, apply_patch, write, shell/,
      );
      expectDecision(s.latest().decisions, "call.validate", "code", "invalid arguments");
      expectDecision(s.latest().decisions, "call.validate", "code", "unknown tool");
    } finally {
      await s.close();
    }
  });

  it("runs the calls of one response in parallel", async () => {
    const sleeper = (id: string) => ({ id, name: "shell", arguments: { command: `sleep 0.6 # ${id}` } });
    const s = await startScenario({
      rules: [{ match: { request: 1 }, reply: { toolCalls: [sleeper("c1"), sleeper("c2"), sleeper("c3")] } }, done],
    });
    try {
      const result = await s.run(["run", "--auto", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const order = s
        .latest()
        .events.filter((e) => e.type === "call.started" || e.type === "call.finished")
        .map((e) => e.type);
      assert.deepEqual(order, [
        "call.started",
        "call.started",
        "call.started",
        "call.finished",
        "call.finished",
        "call.finished",
      ]);
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: turn seats", () => {
  it("asks again after an empty reply, twice, then fails", async () => {
    const ok = await startScenario({ rules: [{ reply: [{ text: "" }, { text: "" }, { text: "Here." }] }] });
    try {
      const result = await ok.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const retries = ok.latest().decisions.filter((d) => d.seat === "turn.done" && d.answer === "retry-empty");
      assert.equal(retries.length, 2);
      expectDecision(ok.latest().decisions, "turn.done", "code", "retry-empty");
    } finally {
      await ok.close();
    }
    const bad = await startScenario({ rules: [{ reply: { text: "" } }] });
    try {
      const result = await bad.run(["run", "go"]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /replied with nothing, three times/);
      expectDecision(bad.latest().decisions, "turn.done", "code", "fail-empty");
    } finally {
      await bad.close();
    }
  });

  it("continues a reply cut at the output limit, at most twice", async () => {
    const s = await startScenario({
      rules: [{ reply: [{ text: "part one", finish: "length" }, { text: " part two" }] }],
    });
    try {
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "part one part two\n");
      expectDecision(s.latest().decisions, "turn.continue_after_length", "code", "continue");
    } finally {
      await s.close();
    }
    const cut = await startScenario({ rules: [{ reply: { text: "again", finish: "length" } }] });
    try {
      const result = await cut.run(["run", "go"]);
      assert.equal(result.code, 1);
      expectDecision(cut.latest().decisions, "turn.continue_after_length", "code", "fail");
    } finally {
      await cut.close();
    }
  });

  it("stops a model that repeats the same call (exit 3)", async () => {
    const s = await startScenario({ rules: [{ reply: { toolCalls: [{ name: "list", arguments: { path: "." } }] } }] });
    try {
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /list was called with the same arguments 3 times in a row/);
      expectDecision(s.latest().decisions, "call.repeat", "code", "stop");
      assert.equal(s.server.requests.length, 3);
    } finally {
      await s.close();
    }
  });

  it("stops at max steps (exit 3) and tells the model its budget from half-way", async () => {
    let n = 0;
    const calls = Array.from({ length: 6 }, () => ({
      toolCalls: [{ name: "list", arguments: { path: `dir${n++}` } }],
    }));
    const s = await startScenario({ rules: [{ reply: calls }] });
    try {
      const result = await s.run(["run", "--max-steps", "4", "go"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(s.server.requests.length, 4);
      assert.match(s.server.request(3).normalized?.messages.at(-1)?.text ?? "", /step 3 of 4; 2 left/);
      assert.doesNotMatch(s.server.request(2).normalized?.messages.at(-1)?.text ?? "", /Step budget/);
      const limit = expectDecision(s.latest().decisions, "turn.limit", "config", "stop");
      assert.equal(limit.reasons[0]?.source, "--max-steps");
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: permission and approval", () => {
  const writeCall = {
    match: { request: 1 },
    reply: { toolCalls: [{ id: "w1", name: "write", arguments: { path: "new.txt", content: "hi\n" } }] },
  };

  it("denies an ask when nobody can approve, tells the model, exits 3", async () => {
    const s = await startScenario({
      rules: [writeCall, { match: { lastMessage: "nobody can approve" }, reply: { text: "I could not write it." } }],
    });
    try {
      const result = await s.run(["run", "write a file"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "new.txt")), false);
      expectDecision(s.latest().decisions, "call.approval", "code", "deny");
    } finally {
      await s.close();
    }
  });

  it("runs it with --auto, the person's advance answer applied by code, once", async () => {
    const s = await startScenario({ rules: [writeCall, done] });
    try {
      const result = await s.run(["run", "--auto", "write a file"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "new.txt"), "utf8"), "hi\n");
      expectDecision(s.latest().decisions, "call.approval", "code", "allow-once");
    } finally {
      await s.close();
    }
  });

  it("follows a config rule, recorded with its file", async () => {
    const s = await startScenario(
      // Denied outright, write is not offered; a model that calls it anyway is still judged.
      {
        rules: [
          {
            match: { request: 1 },
            reply: {
              toolCalls: [
                { id: "w1", name: "write", arguments: { path: "new.txt", content: "hi\n" }, unadvertised: true },
              ],
            },
          },
          done,
        ],
      },
      { config: { permission: { edit: "deny", read: "ask" } } },
    );
    try {
      const result = await s.run(["run", "--auto", "write a file"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "new.txt")), false);
      const rule = expectDecision(s.latest().decisions, "call.permission", "config", "deny");
      assert.match(rule.reasons[0]?.source ?? "", /bosun\.json$/);
      const offered = expectDecision(s.latest().decisions, "context.tools", "config");
      assert.deepEqual(offered.answer, [
        "read",
        "list",
        "glob",
        "grep",
        "shell",
        "shell_output",
        "shell_kill",
        "todo",
        "webfetch",
        "question",
        "task",
      ]);
      assert.ok(
        offered.reasons.some(
          (r) => r.detail === "write: every edit request is denied" && /bosun\.json$/.test(r.source ?? ""),
        ),
      );
      assert.deepEqual(s.server.request(1).normalized?.tools, [
        "read",
        "list",
        "glob",
        "grep",
        "shell",
        "shell_output",
        "shell_kill",
        "todo",
        "webfetch",
        "question",
        "task",
      ]);
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: output bounds", () => {
  it("cuts a long result, keeps the whole in a file the model can read", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: { toolCalls: [{ id: "big", name: "shell", arguments: { command: "seq 1 500" } }] },
          },
          done,
        ],
      },
      { config: { output: { max_lines: 50 } } },
    );
    try {
      const first = await s.run(["run", "--auto", "count"]);
      assert.equal(first.code, 0, first.stderr);
      const truncate = expectDecision(s.latest().decisions, "exec.truncate", "config");
      const file = (truncate.answer as { file: string }).file;
      assert.ok(readFileSync(file, "utf8").includes("\n250\n"));
      const sent = s.server.request(2).normalized?.messages.at(-1)?.text ?? "";
      assert.ok(sent.includes(file), "the model is told where the full output is");
      assert.match(sent, /\n500\n/);
      assert.doesNotMatch(sent, /\n250\n/);
      // A second run of the session reads the overflow file through the read tool.
      s.server.requests.length = 0;
      const reader = await startScenario({
        rules: [
          {
            match: { request: 1 },
            reply: { toolCalls: [{ name: "read", arguments: { path: file, offset: 249, limit: 3 } }] },
          },
          done,
        ],
      });
      try {
        // The person's config (in that BOSUN_HOME) now points at the second script's server.
        const userConfig = join(s.ws.home, "bosun.json");
        writeFileSync(userConfig, readFileSync(userConfig, "utf8").replace(s.server.baseURL, reader.server.baseURL));
        // The same session, continued: its own overflow folder is bosun's, readable without asking.
        const second = await s.run(["run", "--continue", "read it"]);
        assert.equal(second.code, 0, second.stderr);
        assert.match(
          reader.server.request(2).normalized?.messages.at(-1)?.text ?? "",
          /249\t249\n\s*250\t250\n\s*251\t251/,
        );
      } finally {
        await reader.close();
      }
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: a resumed session remembers what it read", () => {
  it("lets a later run edit a file read earlier, and refuses when it changed in between", async () => {
    const read = {
      match: { lastMessage: "look" },
      reply: { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] },
    };
    const edit = {
      match: { lastMessage: "/^change$/" },
      reply: { toolCalls: [{ name: "edit", arguments: { path: "a.txt", old_string: "one", new_string: "uno" } }] },
    };
    const s = await startScenario({
      rules: [
        read,
        edit,
        { match: { lastMessage: "changed on disk" }, reply: { text: "It changed; I will read it again." } },
        done,
      ],
    });
    try {
      s.ws.write("a.txt", "one\n");
      assert.equal((await s.run(["run", "look"])).code, 0);
      assert.equal((await s.run(["run", "-c", "--auto", "change"])).code, 0);
      assert.equal(readFileSync(join(s.ws.dir, "a.txt"), "utf8"), "uno\n");
      // Someone else edits the file; the next run must not clobber it unseen.
      s.ws.write("a.txt", "one two\n");
      const refused = await s.run(["run", "-c", "--auto", "change"]);
      assert.equal(refused.code, 0, refused.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "a.txt"), "utf8"), "one two\n");
      assert.match(refused.stdout, /It changed/);
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: crashes and cancellation", () => {
  it("after SIGKILL mid-tool, a resume marks the call interrupted and never re-runs it", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [{ id: "slow", name: "shell", arguments: { command: "echo started >> marker.txt; sleep 20" } }],
          },
        },
        { match: { lastMessage: "go on" }, reply: { text: "Resumed." } },
      ],
    });
    try {
      const { child, result } = s.spawn(["run", "--auto", "run the slow thing"]);
      await waitFor(() => (s.latest().events.some((e) => e.type === "call.started") ? true : undefined));
      // Killed once the command is really running (it has written its marker).
      await waitFor(() => (existsSync(join(s.ws.dir, "marker.txt")) ? true : undefined));
      child.kill("SIGKILL");
      await result;
      const resumed = await s.run(["run", "-c", "--auto", "go on"]);
      assert.equal(resumed.code, 0, resumed.stderr);
      const { decisions, events } = s.latest();
      expectDecision(decisions, "session.recover", "code", "interrupted");
      expectDecision(decisions, "session.target", "person", { mode: "continue", session: s.latest().id });
      assert.equal(events.filter((e) => e.type === "call.started").length, 1, "the call was not run again");
      assert.equal(readFileSync(join(s.ws.dir, "marker.txt"), "utf8"), "started\n");
      const toolResult = s.server.request(2).normalized?.messages.find((m) => m.role === "tool")?.text ?? "";
      assert.match(toolResult, /Interrupted: bosun stopped before this call finished/);
    } finally {
      await s.close();
    }
  });

  it("a second Ctrl-C exits at once and still kills the tool's processes; the session stays usable", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              {
                id: "stubborn",
                name: "shell",
                // A marker in its command line: it runs masked in its own pid namespace, so its $$ means nothing here.
                arguments: { command: "trap '' TERM INT; echo started > pid.txt; sleep 30.0417" },
              },
            ],
          },
        },
        { match: { lastMessage: "again" }, reply: { text: "Here." } },
      ],
    });
    try {
      const { child, result } = s.spawn(["run", "--auto", "be stubborn"]);
      await waitFor(() => (existsSync(join(s.ws.dir, "pid.txt")) ? true : undefined));
      const sleeping = () =>
        readdirSync("/proc").some((entry) => {
          try {
            return /^\d+$/.test(entry) && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("30.0417");
          } catch {
            return false;
          }
        });
      assert.ok(sleeping(), "the command's sleep runs");
      child.kill("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      child.kill("SIGINT");
      const ended = await result;
      assert.equal(ended.code, 130, JSON.stringify(ended));
      // It left at once: the turn never got to end normally (that prints its summary line).
      assert.doesNotMatch(ended.stderr, /\[cancelled ·/);
      assert.ok(Date.now() - started < 10_000);
      await waitFor(() => (sleeping() ? undefined : true), 3000);
      const again = await s.run(["run", "-c", "again"]);
      assert.equal(again.code, 0, again.stderr);
    } finally {
      await s.close();
    }
  });

  it("Ctrl-C cancels the running tool, records it, and leaves the session resumable", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "long", name: "shell", arguments: { command: "sleep 30" } }] },
        },
        { match: { lastMessage: "continue" }, reply: { text: "Back." } },
      ],
    });
    try {
      const { child, result } = s.spawn(["run", "--auto", "wait a long time"]);
      await waitFor(() => (s.latest().events.some((e) => e.type === "call.started") ? true : undefined));
      const started = Date.now();
      child.kill("SIGINT");
      const cancelled = await result;
      assert.equal(cancelled.code, 130, cancelled.stderr);
      assert.ok(Date.now() - started < 5000, "cancel is prompt");
      const events = s.latest().events.map((e) => e.type);
      assert.ok(events.includes("call.cancelled"));
      assert.equal(events.at(-1), "turn.ended");
      const again = await s.run(["run", "-c", "continue"]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(
        s.server.request(2).normalized?.messages.find((m) => m.role === "tool")?.text ?? "",
        /Cancelled by the user/,
      );
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: review fixes", () => {
  it("lands every edit of one file made in one response", async () => {
    const edit = (id: string, from: string, to: string) => ({
      id,
      name: "edit",
      arguments: { path: "a.txt", old_string: from, new_string: to },
    });
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] } },
        {
          match: { request: 2 },
          reply: { toolCalls: [edit("e1", "one", "1"), edit("e2", "two", "2"), edit("e3", "three", "3")] },
        },
        done,
      ],
    });
    try {
      s.ws.write("a.txt", "one\ntwo\nthree\n");
      const result = await s.run(["run", "--auto", "number them"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "a.txt"), "utf8"), "1\n2\n3\n");
    } finally {
      await s.close();
    }
  });

  it("refuses a permission rule for an action that does not exist (exit 2, file and suggestion)", async () => {
    const s = await startScenario({ rules: [done] }, { config: { permission: { Shell: "deny" } } });
    try {
      const result = await s.run(["run", "--auto", "go"]);
      assert.equal(result.code, 2);
      assert.match(
        result.stderr,
        /bosun\.json:\d+: unknown key "permission\.Shell" — did you mean "permission\.shell"\?/,
      );
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });

  it("stops a model repeating a broken call", async () => {
    const s = await startScenario({ rules: [{ reply: { toolCalls: [{ name: "read", arguments: '{"path": ' }] } }] });
    try {
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(s.server.requests.length, 3);
      expectDecision(s.latest().decisions, "call.repeat", "code", "stop");
    } finally {
      await s.close();
    }
  });

  it("reports setup decisions and usage errors as JSON events too", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      const ok = s.events(await s.run(["run", "--format", "json", "go"]));
      const seats = ok.filter((e) => e.type === "decision").map((e) => e.seat);
      assert.deepEqual(seats.slice(0, 5), [
        "session.target",
        "config.load",
        "agent.select",
        "permission.mode",
        "model.select",
      ]);
      const bad = await s.run(["run", "--format", "json", "-m", "nope/x", "go"]);
      assert.equal(bad.code, 2);
      const events = s.events(bad);
      assert.equal(events[0]?.type, "error");
      assert.match(String(events[0]?.message), /unknown provider "nope"/);
      assert.deepEqual(events[1], {
        v: 1,
        seq: 2,
        type: "done",
        status: "error",
        exitCode: 2,
        message: events[0]?.message,
        durationMs: events[1]?.durationMs,
      });
    } finally {
      await s.close();
    }
  });

  it("leaves no session behind when the model cannot be used", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      assert.equal((await s.run(["run", "-m", "nope/x", "go"])).code, 2);
      assert.equal((await s.run(["run", "--agent", "ghost", "go"])).code, 2);
      const listed = await s.run(["sessions", "--json"]);
      assert.deepEqual(JSON.parse(listed.stdout), []);
    } finally {
      await s.close();
    }
  });

  it("refuses to attach a binary file", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      s.ws.write("blob.bin", "\u0000\u0001\u0002binary");
      const result = await s.run(["run", "-f", "blob.bin", "go"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /cannot attach blob\.bin/);
    } finally {
      await s.close();
    }
  });
});

describe("bosun run: usage errors", () => {
  it("exits 2 on a missing message, a bad flag value, an unknown agent, or an unusable model", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      assert.equal((await s.run(["run"], { input: "" })).code, 2);
      assert.equal((await s.run(["run", "--max-steps", "zero", "go"])).code, 2);
      assert.equal((await s.run(["run", "--format", "xml", "go"])).code, 2);
      const agent = await s.run(["run", "--agent", "reviewer", "go"]);
      assert.equal(agent.code, 2);
      assert.match(agent.stderr, /unknown agent "reviewer"; agents: build/);
      const model = await s.run(["run", "-m", "nope/x", "go"]);
      assert.equal(model.code, 2);
      assert.match(model.stderr, /unknown provider "nope"/);
      assert.equal((await s.run(["run", "-f", "missing.txt", "go"])).code, 2);
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });
});
