import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ModelMessage } from "ai";
import { asTranscript, checkSummary, retryInstruction, SUMMARY_INSTRUCTION, SUMMARY_SYSTEM } from "./summary.js";

const GOOD = [
  "## Goal",
  "Fix add() in math.js so the tests pass.",
  "## Decisions",
  "- Edit the function rather than the test.",
  "## State of work",
  "add() fixed; `node test.js` passes.",
  "### Details",
  "none",
  "## Next step",
  "Report to the person.",
  "## Relevant files",
  "- math.js: add()",
].join("\n");

describe("checkSummary", () => {
  it("accepts a summary with every section, and keeps it as written (trimmed)", () => {
    assert.deepEqual(checkSummary(`\n${GOOD}\n\n`), { ok: true, summary: GOOD });
  });

  it("names every missing or empty section", () => {
    const noNext = GOOD.replace("## Next step\nReport to the person.\n", "");
    assert.deepEqual(checkSummary(noNext), { ok: false, missing: ["Next step"] });
    const emptyGoal = GOOD.replace("Fix add() in math.js so the tests pass.", "   ");
    assert.deepEqual(checkSummary(emptyGoal), { ok: false, missing: ["Goal"] });
    assert.deepEqual(checkSummary("Here is a summary: all good."), {
      ok: false,
      missing: ["Goal", "Decisions", "State of work", "Next step", "Relevant files"],
    });
    // A section is a `## ` heading: a bold line or a deeper heading is not one.
    assert.deepEqual(checkSummary(GOOD.replace("## Relevant files", "**Relevant files**")), {
      ok: false,
      missing: ["Relevant files"],
    });
    assert.deepEqual(checkSummary(GOOD.replace("## Decisions", "### Decisions")), {
      ok: false,
      missing: ["Decisions"],
    });
  });

  it("takes headings in any case, with a trailing colon, and a fence around the whole reply", () => {
    const loose = GOOD.replace("## Goal", "## goal:").replace("## Next step", "## NEXT STEP");
    assert.equal(checkSummary(loose).ok, true);
    const fenced = checkSummary(`\`\`\`markdown\n${GOOD}\n\`\`\``);
    assert.deepEqual(fenced, { ok: true, summary: GOOD });
  });
});

describe("the summary request", () => {
  it("asks for exactly the five sections", () => {
    for (const text of [SUMMARY_SYSTEM, SUMMARY_INSTRUCTION]) {
      for (const heading of ["## Goal", "## Decisions", "## State of work", "## Next step", "## Relevant files"]) {
        assert.ok(text.includes(heading), `${heading} in ${text}`);
      }
    }
    assert.match(retryInstruction(["Goal", "Next step"]), /missing "## Goal", "## Next step"/);
  });

  it("sends tool calls and results as text, so no tool blocks go to a request without tools", () => {
    const messages: ModelMessage[] = [
      { role: "system", content: "dropped" },
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a.js" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "read",
            output: { type: "error-text", value: "no such file" },
          },
        ],
      },
      {
        role: "user",
        content: [
          { type: "text", text: "[bosun] Image x.png:" },
          { type: "image", image: "AAAA" },
        ],
      },
    ];
    assert.deepEqual(asTranscript(messages), [
      { role: "user", content: "fix it" },
      { role: "assistant", content: 'Looking.\n[call read c1] {"path":"a.js"}' },
      { role: "user", content: "[result of read c1 (error)]\nno such file" },
      { role: "user", content: "[bosun] Image x.png:" },
    ]);
  });
});
