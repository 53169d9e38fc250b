import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hasControls } from "../../util/printable.js";
import { reportText } from "./report-text.js";

describe("review report text", () => {
  it("a finding's escape sequences are shown as text, never sent to the terminal", () => {
    const text = reportText({
      status: "findings",
      exitCode: 1,
      diff: { what: "HEAD..work tree", truncated: false },
      failOn: "high",
      checks: [],
      findings: [{ file: "a\u001b]0;owned\u0007.js", line: 3, severity: "high", text: "bad\u001b[2Jthing" }],
    });
    assert.ok(!text.includes("\u001b") && !text.includes("\u0007"), text);
    assert.match(text, /HIGH a ]0;owned .js:3: bad \[2Jthing/);
    assert.match(text, /1 findings, 1 at high or above/);
  });

  it("redteam: a check's name, command and output, and the reviewer's error, cannot drive the terminal", () => {
    const text = reportText({
      status: "failed",
      exitCode: 1,
      diff: { what: "HEAD..work tree", truncated: false },
      failOn: "high",
      checks: [
        {
          name: "t\u001b]0;x\u0007",
          command: "printf '\u001b[2J'",
          outcome: "failed",
          exitCode: 1,
          tail: "ok\n\u001b]52;c;cHduZWQ=\u0007\rFAIL\u009b2J",
        },
      ],
      findings: [],
      reviewerError: 'findings: unrecognized key: "\u001b[31mred"',
    });
    assert.ok(
      text.split("\n").every((line) => !hasControls(line)),
      JSON.stringify(text),
    );
    assert.match(text, /check t ]0;x : FAILED \(exit 1\)/);
    assert.match(text, / {5}\]52;c;cHduZWQ= {2}FAIL 2J/);
    assert.match(text, /review failed: t ]0;x {2}failed/);
  });
});
