import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { judgeQuestionReply, personQuestion, questionTool } from "./question.js";

describe("question tool", () => {
  it("draws options as a choice beside the person's own words, a bare question as words alone", () => {
    const picked = personQuestion({ question: "Which?", options: ["a", "b"], multiple: true });
    assert.deepEqual(
      picked.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ["choice", "choices", false],
        ["own_words", "text", false],
      ],
    );
    const bare = personQuestion({ question: "Why?" }, "Agent review");
    assert.equal(bare.from, "Agent review");
    assert.deepEqual(
      bare.fields.map((f) => [f.name, f.kind, f.required]),
      [["own_words", "text", true]],
    );
  });

  it("tells the model what came back and keeps only its kind for the record", () => {
    const nobody = judgeQuestionReply(undefined);
    assert.deepEqual([nobody.holder, nobody.answer, nobody.isError], ["code", "nobody", true]);
    const both = judgeQuestionReply({ action: "accept", values: { choice: ["a", "b"], own_words: " and c " } });
    assert.equal(both.output, "The person chose: a; b\nThe person answered: and c");
    assert.equal(both.reasons[0]?.detail, "2 option(s) and own words");
    assert.doesNotMatch(JSON.stringify(both.reasons), /and c/);
    assert.equal(judgeQuestionReply({ action: "decline" }).answer, "declined");
    assert.equal(judgeQuestionReply({ action: "cancel" }).answer, "dismissed");
    assert.equal(judgeQuestionReply({ action: "accept", values: {} }).output, "The person gave an empty answer.");
    // A choice never offered, or two where one was asked: unfit, held by code, never "chosen".
    const asked = { options: ["red", "blue"], multiple: false };
    const strange = judgeQuestionReply({ action: "accept", values: { choice: ["green", "rm -rf /"] } }, asked);
    assert.deepEqual([strange.holder, strange.answer, strange.isError], ["code", "unfit", true]);
    assert.doesNotMatch(strange.output, /green|rm -rf/);
    assert.equal(judgeQuestionReply({ action: "accept", values: { choice: ["red", "blue"] } }, asked).answer, "unfit");
    assert.equal(judgeQuestionReply({ action: "accept", values: { choice: "blue" } }, asked).answer, "answered");
    assert.equal(
      judgeQuestionReply({ action: "accept", values: { choice: ["red", "blue"] } }, { ...asked, multiple: true })
        .answer,
      "answered",
    );
  });

  it("asks for nothing the rules could not judge: one request, question:person", async () => {
    const tool = questionTool({ record: () => undefined });
    const described = await tool.requests({ question: "x" }, { cwd: "/", workspace: "/" });
    assert.deepEqual(described.requests, [{ action: "question", resource: "person" }]);
  });

  it("a prompt that throws is a dismissal, recorded, never a crash", async () => {
    const recorded: unknown[] = [];
    const tool = questionTool({
      ask: { askQuestion: () => Promise.reject(new Error("face gone")) },
      record: (d) => recorded.push(d),
    });
    const result = await tool.execute({ question: "x" }, {
      callId: "c1",
      signal: new AbortController().signal,
    } as never);
    assert.equal(result.isError, true);
    assert.match(result.output, /dismissed/);
    assert.equal((recorded[0] as { answer: string }).answer, "dismissed");
  });
});
