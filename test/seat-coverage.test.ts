import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { fileURLToPath } from "node:url";
import { HOLDERS } from "../src/contracts/decisions.js";
import { SEATS } from "../src/seats/catalog.js";

const root = fileURLToPath(new URL("..", import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Seats checked by `expectDecision(decisions, "seat.id", holder, ...)` in some test. */
function seatsCheckedByTests(): Set<string> {
  const checked = new Set<string>();
  // The ledger argument may itself hold commas; the seat and holder follow it within the call.
  const call = new RegExp(`expectDecision\\([^;]{0,200}?"([a-z_]+\\.[a-z_]+)",\\s*"(?:${HOLDERS.join("|")})"`, "g");
  for (const file of [...testFiles(join(root, "src")), ...testFiles(join(root, "test"))]) {
    for (const match of readFileSync(file, "utf8").matchAll(call)) checked.add(match[1] as string);
  }
  return checked;
}

it("every declared seat has a test that checks a recorded decision's holder (expectDecision)", () => {
  const checked = seatsCheckedByTests();
  const untested = SEATS.map((s) => s.id).filter((id) => !checked.has(id));
  assert.deepEqual(untested, [], `seats with no expectDecision(ledger, "<seat>", "<holder>", ...) check in any test`);
});

it("checks only seats that exist", () => {
  const declared = new Set(SEATS.map((s) => s.id));
  const unknown = [...seatsCheckedByTests()].filter((id) => !declared.has(id));
  assert.deepEqual(unknown, [], "tests check decisions of seats that are not declared");
});
