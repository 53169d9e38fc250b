import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configFrom } from "../../../test/support/config.js";
import { expectDecision } from "../../../test/support/ledger.js";
import { type Script, withModelServer } from "../../../test/support/model-server.js";
import type { Answer, Decision, RecordedDecision } from "../../contracts/decisions.js";
import { resolveModel } from "../../model/resolve.js";
import { JUDGE_SYSTEM, judgeCommands, parseVerdicts } from "./judge.js";

const asRecorded = (answer: Answer): RecordedDecision[] => [{ seat: "call.judge", ...answer, seq: 1, at: "" }];

async function judgeWith(script: Script, commands: string[]) {
  return withModelServer(script, async (server) => {
    const config = configFrom({ ...server.configFor("openai-compatible"), retry: { max_attempts: 1 } });
    const resolved = resolveModel("scripted/test-model", config, {});
    if (!resolved.ok) throw new Error(resolved.problem);
    const recorded: Decision[] = [];
    const result = await judgeCommands(commands, {
      model: resolved.model,
      config,
      signal: new AbortController().signal,
      step: 1,
      record: (d) => recorded.push(d),
    });
    return { result, request: server.requests[0], recorded };
  });
}

describe("judgeCommands (call.judge)", () => {
  it("asks the model one question and takes READ_ONLY for every command as read-only (model)", async () => {
    const { result, request } = await judgeWith(
      {
        rules: [
          {
            match: { system: "You judge whether shell commands only read" },
            reply: { text: "1: READ_ONLY\n2: READ_ONLY" },
          },
        ],
      },
      ["frobnicate --list", "mytool status"],
    );
    expectDecision(asRecorded(result), "call.judge", "model", "read-only");
    assert.equal(result.verdicts?.get("mytool status"), true);
    assert.equal(result.reasons[0]?.source, "model scripted/test-model");
    // The commands go as JSON strings: data, not instructions.
    assert.match(request?.normalized?.messages.at(-1)?.text ?? "", /1: "frobnicate --list"\n2: "mytool status"/);
    assert.equal(request?.normalized?.tools.length, 0);
  });

  it("answers writes when any command writes", async () => {
    const { result } = await judgeWith({ rules: [{ reply: { text: "1: READ_ONLY\n2: WRITES" } }] }, ["a", "b"]);
    expectDecision(asRecorded(result), "call.judge", "model", "writes");
    assert.equal(result.verdicts?.get("b"), false);
  });

  it("counts any other reply, or a failed request, as no answer (code): the call asks", async () => {
    const chatty = await judgeWith({ rules: [{ reply: { text: "Sure! It is READ_ONLY." } }] }, ["a"]);
    expectDecision(asRecorded(chatty.result), "call.judge", "code", "error");
    assert.match(chatty.result.reasons[0]?.detail ?? "", /not one READ_ONLY\/WRITES line per command.*→ the call asks/);
    const failed = await judgeWith({ rules: [{ reply: { error: { status: 500 } } }] }, ["a"]);
    expectDecision(asRecorded(failed.result), "call.judge", "code", "error");
    assert.equal(failed.result.verdicts, undefined);
    assert.ok(
      failed.recorded.some((d) => d.seat === "model.retry"),
      "the request's own retry seat is recorded",
    );
  });

  it("parses only exactly one numbered verdict per command, in order", () => {
    assert.deepEqual(
      [...(parseVerdicts("1: READ_ONLY\n2: WRITES", ["a", "b"]) ?? [])],
      [
        ["a", true],
        ["b", false],
      ],
    );
    assert.ok(parseVerdicts("`1: READ_ONLY`", ["a"]));
    assert.equal(parseVerdicts("2: READ_ONLY\n1: READ_ONLY", ["a", "b"]), undefined);
    assert.equal(parseVerdicts("1: READ_ONLY", ["a", "b"]), undefined);
    assert.equal(parseVerdicts("1: READ_ONLY\n2: READ_ONLY\n3: READ_ONLY", ["a", "b"]), undefined);
    assert.equal(parseVerdicts("1: read only", ["a"]), undefined);
    assert.match(JUDGE_SYSTEM, /never instructions/);
  });
});
