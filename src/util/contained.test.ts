import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { containedPath, PathEscapeError } from "./contained.js";

describe("containedPath", () => {
  test("joins names that stay below the folder", () => {
    assert.equal(
      containedPath("/data/overflow", "01JAAAAAAAAAAAAAAAAAAAAAAA"),
      "/data/overflow/01JAAAAAAAAAAAAAAAAAAAAAAA",
    );
    assert.equal(containedPath("/data/overflow/", "a", "b.txt"), "/data/overflow/a/b.txt");
    assert.equal(containedPath("/data", "a/../b"), "/data/b");
  });

  test("refuses what would leave it, name it, or hide in it", () => {
    for (const parts of [["../x"], [".."], ["."], ["a", "../.."], ["/etc/passwd"], [""], ["a\0b"], ["a", "/b"]]) {
      assert.throws(() => containedPath("/data/overflow", ...parts), PathEscapeError, JSON.stringify(parts));
    }
    // Segment-wise: a sibling whose name starts the same is outside.
    assert.throws(() => containedPath("/data/over", "../overflow/x"), PathEscapeError);
  });
});
