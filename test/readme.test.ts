import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { README, render } from "../scripts/readme-sections.js";

it("the README's seat and config tables match the code (run `npm run readme` to update)", () => {
  const readme = readFileSync(README, "utf8");
  assert.equal(readme, render(readme));
});
