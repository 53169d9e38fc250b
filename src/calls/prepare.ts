import type { Decision } from "../contracts/decisions.js";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import type { Tool } from "../contracts/tools.js";
import { resolveToolName } from "./names.js";
import { parseArguments } from "./parse.js";
import { type Repair, repairArguments, repairJsonText } from "./repair.js";
import { validateArguments } from "./validate.js";

export type Prepared =
  | { ok: true; call: ModelToolCall; tool: Tool; input: Record<string, unknown> }
  | { ok: false; call: ModelToolCall; error: string };

/**
 * Turns a tool call as the model wrote it into one that can run, or into an error the model can
 * act on. Seats: call.parse (unreadable JSON), call.repair (unambiguous fixes, before/after),
 * call.validate (unknown tool, schema problems: the tool's zod schema, or the JSON Schema an MCP
 * server gave it). Each is recorded only when it changes or stops
 * the call; a clean call passes through without noise in the ledger.
 */
export function prepareCall(
  call: ModelToolCall,
  tools: readonly Tool[],
  record: (d: Decision) => void,
  step: number,
): Prepared {
  const subject = { step, call: call.id };
  const names = tools.map((t) => t.name);
  const named = resolveToolName(call.name, names);
  if (!named) {
    const error = `Unknown tool "${call.name}". Available tools: ${names.length > 0 ? names.join(", ") : "none"}.`;
    record({
      seat: "call.validate",
      holder: "code",
      answer: "unknown tool",
      reasons: [{ rule: "no such tool", detail: error, decisive: true }],
      subject,
    });
    return { ok: false, call, error };
  }
  const tool = tools.find((t) => t.name === named.name) as Tool;

  let parsed = parseArguments(call.input);
  // Trailing commas are dropped (seat call.repair, recorded with the rest below); nothing else is guessed.
  const textRepair = !parsed.ok && typeof call.input === "string" ? repairJsonText(call.input) : undefined;
  if (textRepair) parsed = { ok: true, value: textRepair.value };
  if (!parsed.ok) {
    record({
      seat: "call.parse",
      holder: "code",
      answer: "unreadable",
      reasons: [{ rule: "arguments are not JSON", detail: parsed.error, decisive: true }],
      subject,
    });
    return {
      ok: false,
      call,
      error: `The arguments of this ${tool.name} call are not valid JSON (${parsed.error}). You sent:\n${parsed.quote}\nSend the call again with a JSON object of arguments.`,
    };
  }

  // The SDK has already read one layer of JSON, so a string that still reads as an object was sent
  // double-encoded: that is the whole-arguments repair, recorded as one rather than parsed silently.
  const doubleEncoded =
    typeof call.input === "string" &&
    typeof parsed.value === "object" &&
    parsed.value !== null &&
    !Array.isArray(parsed.value);
  const repaired = repairArguments(doubleEncoded && !textRepair ? call.input : parsed.value, tool.schema);
  if (textRepair) repaired.repairs.unshift(textRepair.repair as Repair);
  if (named.repairedFrom || repaired.repairs.length > 0) {
    const reasons = [
      ...(named.repairedFrom ? [{ rule: "tool name", detail: `${named.repairedFrom} -> ${tool.name}` }] : []),
      ...repaired.repairs.map((r) => ({
        rule: r.kind,
        detail: `${r.path}: ${JSON.stringify(r.before)} -> ${JSON.stringify(r.after)}`,
      })),
    ];
    record({
      seat: "call.repair",
      holder: "code",
      // No `name: undefined`: the answer must read back from the ledger exactly as it was emitted.
      answer: {
        ...(named.repairedFrom ? { name: { before: named.repairedFrom, after: tool.name } } : {}),
        arguments: repaired.repairs,
      },
      reasons,
      subject,
    });
  }

  // No call of it can be checked, so none passes: said as such, not as arguments to fix.
  if (tool.unusable) {
    record({
      seat: "call.validate",
      holder: "code",
      answer: "unusable schema",
      reasons: [{ rule: "schema cannot be used", detail: tool.unusable, decisive: true }],
      subject,
    });
    return { ok: false, call, error: `${tool.name} cannot be called: ${tool.unusable}. Do without it.` };
  }
  // A tool that brings its own JSON Schema (an MCP server's) is checked against it, not zod's reading of it.
  let valid: { ok: true; value: unknown } | { ok: false; problems: string[] };
  if (tool.validate) {
    const own = tool.validate(repaired.value);
    valid = own.ok ? { ok: true, value: repaired.value } : own;
  } else valid = validateArguments(repaired.value, tool.schema);
  if (!valid.ok) {
    record({
      seat: "call.validate",
      holder: "code",
      answer: "invalid arguments",
      reasons: valid.problems.map((p) => ({ rule: "schema", detail: p })),
      subject,
    });
    return {
      ok: false,
      call,
      error: `Invalid arguments for ${tool.name}:\n- ${valid.problems.join("\n- ")}\nFix them and call again.`,
    };
  }
  return { ok: true, call: { ...call, name: tool.name }, tool, input: valid.value as Record<string, unknown> };
}
