import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { SEATS } from "../src/seats/catalog.js";

const root = fileURLToPath(new URL("..", import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

it("every declared seat is named by at least one test besides this one", () => {
  const self = fileURLToPath(import.meta.url);
  const files = [...testFiles(join(root, "src")), ...testFiles(join(root, "test"))].filter((f) => f !== self);
  const texts = files.map((file) => ({ file, text: readFileSync(file, "utf8") }));
  const untested = SEATS.filter((seat) => !texts.some(({ text }) => text.includes(`"${seat.id}"`)));
  assert.deepEqual(
    untested.map((s) => s.id),
    [],
    `seats no test names (as "seat.id") in ${texts.map((t) => relative(root, t.file)).length} test files`,
  );
});
