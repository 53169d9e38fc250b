/**
 * The small project `bosun demo` works on, embedded as data so it ships inside dist/: a tiny
 * ES module with a bug and a test script that runs with plain `node` (no npm install).
 */

/** What the person asks bosun to do. */
export const DEMO_TASK = "node test.js fails. Find the bug and fix it, then check that the tests pass.";

/** The line with the bug, and what fixes it (the script edits exactly this). */
export const DEMO_BUG = {
  file: "stats.js",
  wrong: "return sum / (values.length - 1);",
  right: "return sum / values.length;",
} as const;

/** Path → content. */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  "package.json": `${JSON.stringify({ name: "stats-demo", private: true, type: "module", scripts: { test: "node test.js" } }, null, 2)}\n`,
  "README.md": "# stats-demo\n\nTiny statistics helpers. Run the tests with `node test.js`.\n",
  "stats.js": [
    "/** The arithmetic mean of a non-empty list of numbers. */",
    "export function mean(values) {",
    "  let sum = 0;",
    "  for (const value of values) sum += value;",
    `  ${DEMO_BUG.wrong}`,
    "}",
    "",
    "/** The middle value of a non-empty list (the mean of the two middle values for an even count). */",
    "export function median(values) {",
    "  const sorted = [...values].sort((a, b) => a - b);",
    "  const middle = Math.floor(sorted.length / 2);",
    "  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;",
    "}",
    "",
  ].join("\n"),
  "test.js": [
    'import { mean, median } from "./stats.js";',
    "",
    "let passed = 0;",
    "let failed = 0;",
    "function check(name, actual, expected) {",
    "  if (actual === expected) {",
    "    passed++;",
    '    console.log("ok   " + name);',
    "  } else {",
    "    failed++;",
    '    console.log("FAIL " + name + ": got " + actual);',
    "  }",
    "}",
    "",
    'check("mean([2, 4, 6]) is 4", mean([2, 4, 6]), 4);',
    'check("mean([5, 5]) is 5", mean([5, 5]), 5);',
    'check("median([3, 1, 2]) is 2", median([3, 1, 2]), 2);',
    "",
    'console.log(passed + " passed, " + failed + " failed");',
    "process.exitCode = failed > 0 ? 1 : 0;",
    "",
  ].join("\n"),
};
