import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  backspace,
  completeAt,
  cursorParts,
  deleteToStart,
  deleteWord,
  type Editor,
  EMPTY_EDITOR,
  insert,
  move,
  printable,
  splitLeadingControls,
  textOf,
  walkHistory,
} from "./editor.js";

const typed = (text: string): Editor => insert(EMPTY_EDITOR, text);

describe("the input editor", () => {
  it("types and deletes at the cursor, which ←/→ and start/end move", () => {
    let e = typed("fix the test");
    e = move(move(move(move(e, "left"), "left"), "left"), "left");
    e = insert(e, "flaky ");
    assert.equal(e.value, "fix the flaky test");
    assert.equal(e.cursor, "fix the flaky ".length);
    e = backspace(e);
    assert.equal(e.value, "fix the flakytest");
    e = move(e, "start");
    assert.equal(e.cursor, 0);
    assert.equal(backspace(e), e, "nothing before the cursor: nothing deleted");
    e = move(e, "end");
    assert.equal(e.cursor, e.value.length);
  });

  it("start and end are the cursor's own line; Ctrl-U deletes to the line's start, Ctrl-W a word", () => {
    let e = typed("first line\nsecond line");
    e = move(e, "start");
    assert.equal(e.cursor, "first line\n".length);
    e = move(e, "end");
    assert.equal(deleteToStart(e).value, "first line\n");
    assert.equal(deleteWord(e).value, "first line\nsecond ");
  });

  it("collapses a large paste, sends its text, and removes the marker whole on Backspace", () => {
    const big = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    let e = insert(typed("see "), big);
    assert.equal(e.value, "see [pasted #0: 30 lines]");
    assert.equal(textOf(e), `see ${big}`);
    e = backspace(e);
    assert.equal(e.value, "see ");
  });

  it("walks the history and brings back the line being written", () => {
    const history = ["older", "newest"];
    let e = typed("half writ");
    e = walkHistory(e, history, "older");
    assert.equal(e.value, "newest");
    e = walkHistory(e, history, "older");
    assert.equal(e.value, "older");
    assert.equal(walkHistory(e, history, "older"), e, "no further back than the oldest");
    e = walkHistory(walkHistory(e, history, "newer"), history, "newer");
    assert.equal(e.value, "half writ");
    assert.equal(e.cursor, "half writ".length);
  });

  it("completes an @path before the cursor, keeping what follows", () => {
    const files = ["src/app.ts", "src/apple.ts"];
    const complete = (partial: string) => files.filter((f) => f.startsWith(partial));
    let e = move(typed("look at @sr please"), "end");
    for (let i = 0; i < " please".length; i++) e = move(e, "left");
    e = completeAt(e, complete) as Editor;
    assert.equal(e.value, "look at @src/app please");
    assert.deepEqual(e.candidates, files);
    assert.equal(completeAt(typed("no path here"), complete), undefined);
  });

  it("at the very start, Ctrl-U and Home stay put, even before a newline", () => {
    const e = move(typed("\nabc"), "start");
    const top = { ...e, cursor: 0 };
    assert.equal(move(top, "start").cursor, 0);
    assert.equal(deleteToStart(top).value, "\nabc");
  });

  it("steps over a whole emoji or accented letter, never half of one", () => {
    let e = typed("hi 😀");
    e = backspace(e);
    assert.equal(e.value, "hi ");
    e = typed("e\u0301x");
    e = move(move(e, "left"), "left");
    assert.equal(e.cursor, 0, "é is one step");
    assert.equal(move(e, "right").cursor, 2);
    assert.deepEqual(cursorParts(e), { before: "", under: "e\u0301", after: "x" });
  });

  it("the cursor never stops inside a collapsed paste, so typing cannot break it", () => {
    const big = "x".repeat(300);
    let e = insert(insert(typed("a "), big), " b");
    assert.equal(e.value, "a [pasted #0: 1 line] b");
    e = move(move(move(e, "left"), "left"), "left");
    assert.equal(e.cursor, 2, "one step left of the marker's end goes to its start");
    e = move(e, "right");
    assert.equal(e.cursor, "a [pasted #0: 1 line]".length);
    e = insert(e, "!");
    assert.equal(textOf(e), `a ${big}! b`);
  });

  it("splits the Ctrl keys that lead a chunk off its text, and keeps no control characters in text", () => {
    assert.deepEqual(splitLeadingControls("\u000f/why call.approval"), { keys: ["o"], rest: "/why call.approval" });
    assert.deepEqual(splitLeadingControls("\u000f\u0018x"), { keys: ["o", "x"], rest: "x" });
    assert.deepEqual(splitLeadingControls("\tplain"), { keys: [], rest: "\tplain" }, "Tab is not a leading Ctrl key");
    assert.deepEqual(splitLeadingControls("\u001b[A"), { keys: [], rest: "\u001b[A" }, "nor is Esc");
    assert.equal(printable("a\u0000b\u0007c\u001b[31md\u007f\ne\tf"), "abc[31md\ne\tf");
  });
});
