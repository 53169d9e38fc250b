import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import type { Tool } from "../contracts/tools.js";
import { builtinTools } from "../tools/registry.js";
import { RAW_QUOTE_LIMIT } from "./parse.js";
import { type Prepared, prepareCall } from "./prepare.js";

const TOOLS = builtinTools();

/** Prepares one call with a recording array; the decisions come back shaped as in the ledger. */
function prepare(
  call: ModelToolCall,
  tools: readonly Tool[] = TOOLS,
): { prepared: Prepared; recorded: Decision[]; decisions: RecordedDecision[] } {
  const recorded: Decision[] = [];
  const prepared = prepareCall(call, tools, (d) => recorded.push(d), 4);
  const decisions = recorded.map((d, i) => ({ ...d, seq: i + 1, at: "" }));
  return { prepared, recorded, decisions };
}

describe("prepareCall", () => {
  it("records nothing for a clean call and passes it through", () => {
    const call = { id: "c1", name: "read", input: { path: "a.txt", limit: 3 } };
    const { prepared, recorded } = prepare(call);
    assert.deepEqual(recorded, []);
    assert.equal(prepared.ok, true);
    if (!prepared.ok) return;
    assert.equal(prepared.tool.name, "read");
    assert.deepEqual(prepared.call, call);
    assert.deepEqual(prepared.input, { path: "a.txt", limit: 3 });
  });

  it("records nothing for a clean call without arguments", () => {
    const { prepared, recorded } = prepare({ id: "c1", name: "list", input: undefined });
    assert.deepEqual(recorded, []);
    assert.deepEqual(prepared.ok && prepared.input, {});
  });

  it("refuses an unknown tool, listing the available ones (call.validate by code)", () => {
    const { prepared, recorded, decisions } = prepare({ id: "c9", name: "browse", input: { url: "x" } });
    assert.equal(prepared.ok, false);
    const error =
      'Unknown tool "browse". Available tools: read, list, glob, grep, edit, apply_patch, write, shell, shell_output, shell_kill, todo, webfetch, websearch.';
    assert.equal(!prepared.ok && prepared.error, error);
    assert.equal(prepared.call.id, "c9");
    expectDecision(decisions, "call.validate", "code", "unknown tool");
    assert.deepEqual(recorded, [
      {
        seat: "call.validate",
        holder: "code",
        answer: "unknown tool",
        reasons: [{ rule: "no such tool", detail: error, decisive: true }],
        subject: { step: 4, call: "c9" },
      },
    ]);
  });

  it("says so when there are no tools at all", () => {
    const { prepared } = prepare({ id: "c1", name: "read", input: {} }, []);
    assert.equal(!prepared.ok && prepared.error, 'Unknown tool "read". Available tools: none.');
  });

  it("refuses an ambiguous case-only name as unknown", () => {
    const shout = { ...TOOLS[0], name: "READ" } as Tool;
    const { prepared, recorded } = prepare({ id: "c1", name: "Read", input: { path: "a" } }, [...TOOLS, shout]);
    assert.equal(prepared.ok, false);
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]?.answer, "unknown tool");
  });

  it("sends unreadable JSON back quoted (call.parse by code)", () => {
    const { prepared, recorded, decisions } = prepare({ id: "c2", name: "read", input: '{"path": "a.txt"' });
    assert.equal(prepared.ok, false);
    if (prepared.ok) return;
    assert.match(prepared.error, /^The arguments of this read call are not valid JSON \(.+\)\. You sent:\n/);
    assert.match(prepared.error, /\n\{"path": "a\.txt"\nSend the call again with a JSON object of arguments\.$/);
    expectDecision(decisions, "call.parse", "code", "unreadable");
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]?.reasons[0]?.rule, "arguments are not JSON");
    assert.equal(recorded[0]?.reasons[0]?.decisive, true);
    assert.deepEqual(recorded[0]?.subject, { step: 4, call: "c2" });
  });

  it("quotes at most 2 KB of long unreadable arguments", () => {
    const input = `{"path": "a.txt", "content": "${"z".repeat(10_000)}`;
    const { prepared } = prepare({ id: "c2", name: "write", input });
    assert.equal(prepared.ok, false);
    if (prepared.ok) return;
    assert.ok(prepared.error.includes(`${input.slice(0, RAW_QUOTE_LIMIT)}… (${input.length} characters in all)`));
    assert.ok(!prepared.error.includes(input.slice(0, RAW_QUOTE_LIMIT + 1)));
  });

  it("resolves the tool name before reading arguments (an unknown tool is not a parse problem)", () => {
    const { recorded } = prepare({ id: "c1", name: "nope", input: "{broken" });
    assert.deepEqual(
      recorded.map((d) => d.seat),
      ["call.validate"],
    );
  });

  it("records a name repair and argument repairs together (call.repair by code)", () => {
    const { prepared, recorded, decisions } = prepare({
      id: "c3",
      name: "functions.Read",
      input: { path: "a.txt", offset: "2" },
    });
    assert.equal(prepared.ok, true);
    if (!prepared.ok) return;
    assert.equal(prepared.tool.name, "read");
    assert.equal(prepared.call.name, "read");
    assert.equal(prepared.call.id, "c3");
    assert.deepEqual(prepared.input, { path: "a.txt", offset: 2 });
    expectDecision(decisions, "call.repair", "code", {
      name: { before: "functions.Read", after: "read" },
      arguments: [{ path: "offset", kind: "number from string", before: "2", after: 2 }],
    });
    assert.deepEqual(recorded[0]?.reasons, [
      { rule: "tool name", detail: "functions.Read -> read" },
      { rule: "number from string", detail: 'offset: "2" -> 2' },
    ]);
    assert.deepEqual(recorded[0]?.subject, { step: 4, call: "c3" });
    assert.equal(recorded.length, 1);
  });

  it("records a name-only repair with no argument repairs", () => {
    const { prepared, recorded } = prepare({ id: "c1", name: "tools.shell", input: { command: "ls" } });
    assert.equal(prepared.ok && prepared.call.name, "shell");
    assert.deepEqual(recorded[0]?.answer, { name: { before: "tools.shell", after: "shell" }, arguments: [] });
  });

  it("records arguments sent double-encoded as a repair, not a silent parse", () => {
    // The SDK reads the JSON text once; what it hands over as a string that is still an object's
    // JSON was a stringified object inside the JSON text.
    const before = '{"path": "a.txt"}';
    const { prepared, recorded, decisions } = prepare({ id: "c1", name: "read", input: before });
    assert.deepEqual(prepared.ok && prepared.input, { path: "a.txt" });
    expectDecision(decisions, "call.repair", "code", {
      arguments: [{ path: "(arguments)", kind: "stringified JSON", before, after: { path: "a.txt" } }],
    });
    assert.equal(recorded.length, 1);
  });

  it("does not call a string holding a non-object a repair; validation refuses it", () => {
    const { prepared, recorded } = prepare({ id: "c1", name: "read", input: "[1, 2]" });
    assert.equal(prepared.ok, false);
    assert.deepEqual(
      recorded.map((d) => [d.seat, d.answer]),
      [["call.validate", "invalid arguments"]],
    );
    assert.match(!prepared.ok ? prepared.error : "", /\(arguments\): .*expected object, received array/);
  });

  it("records an argument-only repair without a name entry (it reads back from the ledger unchanged)", () => {
    const before = '{"command": "ls", "background": "false"}';
    const { prepared, recorded } = prepare({ id: "c1", name: "shell", input: before });
    assert.deepEqual(prepared.ok && prepared.input, { command: "ls", background: false });
    const answer = recorded[0]?.answer;
    assert.deepEqual(answer, {
      arguments: [
        { path: "(arguments)", kind: "stringified JSON", before, after: { command: "ls", background: "false" } },
        { path: "background", kind: "boolean from string", before: "false", after: false },
      ],
    });
    assert.deepEqual(JSON.parse(JSON.stringify(answer)), answer);
    assert.deepEqual(
      recorded[0]?.reasons.map((r) => r.rule),
      ["stringified JSON", "boolean from string"],
    );
  });

  it("lists schema problems (call.validate by code) and tells the model how to fix them", () => {
    const { prepared, recorded, decisions } = prepare({ id: "c4", name: "read", input: { file: "a.txt" } });
    assert.equal(prepared.ok, false);
    if (prepared.ok) return;
    assert.equal(
      prepared.error,
      "Invalid arguments for read:\n- path: Invalid input: expected string, received undefined\n- (arguments): unknown argument(s) file\nFix them and call again.",
    );
    expectDecision(decisions, "call.validate", "code", "invalid arguments");
    assert.deepEqual(recorded, [
      {
        seat: "call.validate",
        holder: "code",
        answer: "invalid arguments",
        reasons: [
          { rule: "schema", detail: "path: Invalid input: expected string, received undefined" },
          { rule: "schema", detail: "(arguments): unknown argument(s) file" },
        ],
        subject: { step: 4, call: "c4" },
      },
    ]);
  });

  it("records a repair and then the validation that still fails", () => {
    const { prepared, recorded } = prepare({ id: "c5", name: "Read", input: { path: "a", offset: "0" } });
    assert.equal(prepared.ok, false);
    assert.deepEqual(
      recorded.map((d) => [d.seat, d.answer === "invalid arguments" ? d.answer : "repair"]),
      [
        ["call.repair", "repair"],
        ["call.validate", "invalid arguments"],
      ],
    );
    assert.match(!prepared.ok ? prepared.error : "", /offset: Too small/);
  });

  it("validates what a repair produced (a wrapped value of the wrong type still fails)", () => {
    const { prepared } = prepare({ id: "c6", name: "shell", input: { command: "" } });
    assert.equal(prepared.ok, false);
    assert.match(!prepared.ok ? prepared.error : "", /command: Too small/);
  });
});
