import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ModelMessage } from "ai";
import { imageTypeOf } from "../contracts/images.js";
import { fitImages } from "./images.js";

const image = (n: number) => ({ type: "image" as const, image: `data${n}`, mediaType: "image/png" });
const messages = (count: number): ModelMessage[] =>
  Array.from({ length: count }, (_, i) => ({
    role: "user" as const,
    content: [{ type: "text" as const, text: `Image ${i}:` }, image(i)],
  }));
const kept = (out: ModelMessage[]) =>
  out
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; image?: unknown }>) : []))
    .filter((p) => p.type === "image")
    .map((p) => p.image);

describe("fitImages", () => {
  it("replaces every image by a note for a model that takes none, leaving the input unchanged", () => {
    const input = messages(2);
    const out = fitImages(input, { accepts: false });
    assert.deepEqual(kept(out.messages), []);
    assert.equal(out.withheld, 2);
    assert.match(JSON.stringify(out.messages), /image not sent: this model does not take images/);
    assert.deepEqual(kept(input), ["data0", "data1"]);
  });

  it("keeps the newest images within the budget, the oldest dropped first", () => {
    const out = fitImages(messages(5), { accepts: true, budget: 2 });
    assert.deepEqual(kept(out.messages), ["data3", "data4"]);
    assert.equal(out.dropped, 3);
    assert.match(JSON.stringify(out.messages[0]), /no longer sent: only the newest 2 images are/);
  });

  it("knows image files by extension", () => {
    assert.equal(imageTypeOf("a/B.PNG"), "image/png");
    assert.equal(imageTypeOf("x.jpg"), "image/jpeg");
    assert.equal(imageTypeOf("x.svg"), undefined);
    assert.equal(imageTypeOf("Makefile"), undefined);
  });
});
