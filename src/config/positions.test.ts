import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Node, parse, parseTree } from "jsonc-parser";
import { seededRandom } from "../../test/support/random.js";
import { ConfigError } from "../errors.js";
import { lineAndColumn, parseJsonc } from "./jsonc.js";
import { indexPositions, MAX_NESTING } from "./positions.js";

type Path = (string | number)[];

/** How lines were found before the index: parseTree, then a walk per key. The oracle. */
function oracleLine(text: string, path: Path): number | undefined {
  const tree = parseTree(text, undefined, { allowTrailingComma: true });
  if (!tree) return undefined;
  for (let length = path.length; length >= 0; length--) {
    let node: Node | undefined = tree;
    for (const segment of path.slice(0, length)) {
      if (node?.type === "object" && typeof segment === "string") {
        let found: Node | undefined;
        for (const property of node.children ?? []) {
          if (property.children?.[0]?.value === segment) found = property.children[1];
        }
        node = found;
      } else if (node?.type === "array" && typeof segment === "number") {
        node = node.children?.[segment];
      } else {
        node = undefined;
      }
    }
    if (node) return lineAndColumn(text, (node.parent?.type === "property" ? node.parent : node).offset).line;
  }
  return undefined;
}

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function rejection(text: string, source = "bosun.json"): string {
  try {
    parseJsonc(text, source);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${error}`);
    assert.equal(error.exitCode, 2);
    return error.message;
  }
  assert.fail("expected the text to be rejected");
}

describe("lineOf: every key's line from one pass", () => {
  const text = [
    '// a comment with { braces [ and "quotes"', // 1
    "{", // 2
    '  "model": "a/b", /* "model": "not this" */', // 3
    '  "retry": {', // 4
    '    "max_attempts": 3', // 5
    "  },", // 6
    '  "agent": {', // 7
    '    "retry": { "model": "x" },', // 8: the same names, deeper
    '    "model": "{ not: a brace }"', // 9
    "  },", // 10
    '  "hooks": { "pre_tool": [', // 11
    '    { "command": "a" },', // 12
    "    {", // 13
    '      "command": "b"', // 14
    "    }", // 15
    "  ] },", // 16
    '  "fallback": [', // 17
    '    "x",', // 18
    "    [", // 19
    '      "nested"', // 20
    "    ],", // 21
    "  ],", // 22
    "}", // 23
  ].join("\n");
  const doc = parseJsonc(text, "f.json");

  it("finds keys in nested objects, and the same name at different depths apart", () => {
    assert.equal(doc.lineOf([]), 2);
    assert.equal(doc.lineOf(["model"]), 3);
    assert.equal(doc.lineOf(["retry"]), 4);
    assert.equal(doc.lineOf(["retry", "max_attempts"]), 5);
    assert.equal(doc.lineOf(["agent", "retry"]), 8);
    assert.equal(doc.lineOf(["agent", "retry", "model"]), 8);
    assert.equal(doc.lineOf(["agent", "model"]), 9);
  });

  it("finds array elements by index, objects in arrays and arrays in arrays", () => {
    assert.equal(doc.lineOf(["hooks", "pre_tool"]), 11);
    assert.equal(doc.lineOf(["hooks", "pre_tool", 0]), 12);
    assert.equal(doc.lineOf(["hooks", "pre_tool", 1]), 13);
    assert.equal(doc.lineOf(["hooks", "pre_tool", 1, "command"]), 14);
    assert.equal(doc.lineOf(["fallback", 0]), 18);
    assert.equal(doc.lineOf(["fallback", 1]), 19);
    assert.equal(doc.lineOf(["fallback", 1, 0]), 20);
  });

  it("is not misled by comments or by braces and quotes inside strings", () => {
    assert.deepEqual(doc.data, {
      model: "a/b",
      retry: { max_attempts: 3 },
      agent: { retry: { model: "x" }, model: "{ not: a brace }" },
      hooks: { pre_tool: [{ command: "a" }, { command: "b" }] },
      fallback: ["x", ["nested"]],
    });
  });

  it("falls back to the deepest key that is there; an index never names a key nor a key an index", () => {
    assert.equal(doc.lineOf(["retry", "nope", "deeper"]), 4);
    assert.equal(doc.lineOf(["hooks", "pre_tool", 7, "command"]), 11);
    assert.equal(doc.lineOf(["hooks", "pre_tool", "0"]), 11);
    assert.equal(doc.lineOf(["model", "under", "a", "string"]), 3);
    assert.equal(doc.lineOf(["nope"]), 2);
  });

  it("takes the last of a repeated key, whose value parse keeps, with nothing of the earlier value", () => {
    const repeated = parseJsonc(
      '{\n  "a": { "b": 1, "gone": 2 },\n  "c": 0,\n  "a": {\n    "b": 3\n  },\n  "c": 4\n}',
      "f.json",
    );
    assert.deepEqual(repeated.data, { a: { b: 3 }, c: 4 });
    assert.equal(repeated.lineOf(["a"]), 4);
    assert.equal(repeated.lineOf(["a", "b"]), 5);
    assert.equal(repeated.lineOf(["a", "gone"]), 4);
    assert.equal(repeated.lineOf(["c"]), 7);
  });

  it('refuses a "__proto__" key, which parsers read three ways', () => {
    assert.equal(
      rejection('{\n  "a": { "__proto__": { "mode": "auto" } }\n}'),
      'bosun.json:2: "__proto__" is not a config key',
    );
    assert.equal(parseJsonc('{ "a": "__proto__" }', "f.json").lineOf(["a"]), 1);
  });

  it("gives columns too", () => {
    const index = indexPositions('{\n  "a": [1,\n     {"b": 2}]\n}', "f.json");
    assert.deepEqual(index.positionOf(["a"]), { line: 2, column: 3 });
    assert.deepEqual(index.positionOf(["a", 1]), { line: 3, column: 6 });
    assert.deepEqual(index.positionOf(["a", 1, "b"]), { line: 3, column: 7 });
  });

  it("agrees with the parse tree on every key of random documents", () => {
    const random = seededRandom(12);
    const names = ["a", "b", "model", "x.y", "", "é", 'q"uote'];
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const space = () => pick(["", " ", "\n", "\r\n  ", " // c\n", " /* c\n */ "]);
    const paths: Path[] = [];
    const value = (depth: number, path: Path): string => {
      paths.push(path);
      const roll = random();
      if (depth > 4 || roll < 0.4) return pick(['"s"', "1", "true", "null", '"{ [ \\" ] }"']);
      if (roll < 0.7) {
        const items = Array.from({ length: Math.floor(random() * 4) }, (_, i) => value(depth + 1, [...path, i]));
        return `[${items.map((item) => `${space()}${item}`).join(",")}${space()}]`;
      }
      const keys = Array.from({ length: Math.floor(random() * 5) }, () => pick(names));
      const members = keys.map(
        (key) => `${space()}${JSON.stringify(key)}${space()}:${space()}${value(depth + 1, [...path, key])}`,
      );
      return `{${members.join(",")}${random() < 0.3 && members.length > 0 ? "," : ""}${space()}}`;
    };
    let plain = 0;
    for (let round = 0; round < 200; round++) {
      paths.length = 0;
      const text = `${space()}${value(0, [])}${space()}`;
      const doc = parseJsonc(text, "f.json");
      // Plain JSON goes through JSON.parse, the rest through jsonc-parser: the same values.
      assert.deepEqual(doc.data, parse(text, [], { allowTrailingComma: true }), text);
      if (isPlainJson(text)) plain++;
      for (const path of paths) {
        for (const probe of [path, [...path, "missing"], [...path, 99]]) {
          assert.equal(
            doc.lineOf(probe),
            oracleLine(text, probe),
            `${JSON.stringify(probe)} in ${JSON.stringify(text)}`,
          );
        }
      }
    }
    assert.ok(plain > 20 && plain < 180, `${plain} of 200 texts were plain JSON`);
  });

  it("answers 160,000 keys in linear time", () => {
    const keys = Array.from({ length: 160_000 }, (_, i) => `  "k${i}": ${i}`);
    const text = `{\n${keys.join(",\n")}\n}`;
    const started = performance.now();
    const doc = parseJsonc(text, "f.json");
    for (let i = 0; i < 160_000; i++) assert.equal(doc.lineOf([`k${i}`]), i + 2);
    // The old walk took minutes here; a generous bound for a loaded machine.
    assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
  });
});

describe("nesting limit", () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

  it(`reads ${MAX_NESTING} levels and refuses one more, naming the file, line and key`, () => {
    assert.doesNotThrow(() => parseJsonc(nested(MAX_NESTING), "f.json"));
    assert.equal(
      rejection(`{\n  "provider": {\n    "x": ${"[".repeat(MAX_NESTING)}${"]".repeat(MAX_NESTING)}\n  }\n}`),
      `bosun.json:3: nesting deeper than ${MAX_NESTING} levels at key provider.x[0][0][0][0]…; bosun reads config up to ${MAX_NESTING} levels deep`,
    );
  });

  it("refuses 100,000 levels of objects or arrays with that error, not a stack overflow", () => {
    const message = `nesting deeper than ${MAX_NESTING} levels at key a.a.a.a.a.a…; bosun reads config up to ${MAX_NESTING} levels deep`;
    assert.equal(rejection(nested(100_000)), `bosun.json:1: ${message}`);
    assert.equal(
      rejection(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, "BOSUN_CONFIG_CONTENT").split(": ")[0],
      "BOSUN_CONFIG_CONTENT:1",
    );
    // Unclosed, and with syntax errors before it: still the nesting error, before the parser recurses.
    assert.equal(
      rejection(`{ "x" 1, "a": ${'{"a":'.repeat(100_000)}`),
      `bosun.json:1: nesting deeper than ${MAX_NESTING} levels at key a.a.a.a.a.a…; bosun reads config up to ${MAX_NESTING} levels deep`,
    );
  });

  it("cuts a long key in the message", () => {
    const key = "k".repeat(5000);
    const message = rejection(`{${JSON.stringify(key)}: ${"[".repeat(MAX_NESTING)}}`);
    assert.ok(message.length < 300, message);
    assert.match(message, /at key \["k{40}…"\]\[0\]/);
  });
});
