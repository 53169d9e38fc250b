import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseReviewArgs } from "./review-command.js";

describe("/review arguments", () => {
  it("reads --base, --staged and --fail-on; high by default", () => {
    assert.deepEqual(parseReviewArgs(""), { failOn: "high" });
    assert.deepEqual(parseReviewArgs("--base main --staged --fail-on low"), {
      base: "main",
      staged: true,
      failOn: "low",
    });
  });

  it("says what is wrong instead of running", () => {
    assert.match(JSON.stringify(parseReviewArgs("--base")), /--base needs a value/);
    assert.match(JSON.stringify(parseReviewArgs("--fail-on severe")), /--fail-on must be/);
    assert.match(JSON.stringify(parseReviewArgs("everything")), /unknown argument \\"everything\\"/);
  });
});
