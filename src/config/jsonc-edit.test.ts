import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { BosunError, ConfigError } from "../errors.js";
import { editJsoncFile, formattingOf } from "./jsonc-edit.js";

const folder = () => mkdtempSync(join(tmpdir(), "bosun-jsonc-edit-"));

describe("editJsoncFile", () => {
  it("adds a nested value, keeping comments, trailing commas and the file's tabs", () => {
    const file = join(folder(), "bosun.json");
    writeFileSync(file, '{\n\t// mine\n\t"model": "a/b", /* kept */\n}\n');
    editJsoncFile(file, ["mcp", "x"], { command: "srv" });
    const text = readFileSync(file, "utf8");
    assert.equal(
      text,
      '{\n\t// mine\n\t"model": "a/b", /* kept */\n\t"mcp": {\n\t\t"x": {\n\t\t\t"command": "srv"\n\t\t}\n\t}\n}\n',
    );
  });

  it("removes a value and leaves the rest as it was", () => {
    const file = join(folder(), "bosun.json");
    const before =
      '{\n  // servers\n  "mcp": {\n    "a": { "command": "x" }, // a\n    "b": { "command": "y" }\n  }\n}\n';
    writeFileSync(file, before);
    editJsoncFile(file, ["mcp", "b"], undefined);
    assert.equal(readFileSync(file, "utf8"), '{\n  // servers\n  "mcp": {\n    "a": { "command": "x" } // a\n  }\n}\n');
  });

  it("adds after a last property with no comma, its comment staying on its line; replaces a value in place", () => {
    const file = join(folder(), "bosun.json");
    writeFileSync(file, '{\r\n    "mcp": {\r\n        "a": { "command": "x" } // a\r\n    }\r\n}\r\n');
    editJsoncFile(file, ["mcp", "z"], { command: "y" });
    assert.equal(
      readFileSync(file, "utf8"),
      '{\r\n    "mcp": {\r\n        "a": { "command": "x" }, // a\r\n        "z": {\r\n            "command": "y"\r\n        }\r\n    }\r\n}\r\n',
    );
    editJsoncFile(file, ["mcp", "a"], { command: "w" });
    assert.match(readFileSync(file, "utf8"), /"a": \{\s*"command": "w"\s*\}, \/\/ a/);
  });

  it("takes out a middle property's lines, and the comma a last one leaves", () => {
    const file = join(folder(), "bosun.json");
    writeFileSync(file, '{\n  "a": 1, // one\n  "b": {\n    "c": 2\n  }, // two\n  "d": 3\n}\n');
    editJsoncFile(file, ["b"], undefined);
    assert.equal(readFileSync(file, "utf8"), '{\n  "a": 1, // one\n  "d": 3\n}\n');
    editJsoncFile(file, ["d"], undefined);
    assert.equal(readFileSync(file, "utf8"), '{\n  "a": 1 // one\n}\n');
  });

  it("falls back to jsonc-parser where properties share a line", () => {
    const file = join(folder(), "bosun.json");
    writeFileSync(file, '{ "a": 1, "b": 2 }\n');
    editJsoncFile(file, ["a"], undefined);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { b: 2 });
    editJsoncFile(file, ["mcp", "x"], { command: "y" });
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { b: 2, mcp: { x: { command: "y" } } });
  });

  it("starts a missing file (and its folder) as {}", () => {
    const file = join(folder(), "new", "bosun.json");
    editJsoncFile(file, ["mcp", "x"], { url: "https://h/mcp" }, () => {}, { mode: 0o600 });
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { mcp: { x: { url: "https://h/mcp" } } });
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it("writes nothing when the check refuses the result, or the file does not parse", () => {
    const file = join(folder(), "bosun.json");
    writeFileSync(file, '{ "a": 1 }\n');
    assert.throws(
      () =>
        editJsoncFile(file, ["b"], 2, () => {
          throw new ConfigError("no");
        }),
      ConfigError,
    );
    assert.equal(readFileSync(file, "utf8"), '{ "a": 1 }\n');
    writeFileSync(file, '{ "a": \n');
    assert.throws(() => editJsoncFile(file, ["b"], 2), ConfigError);
    assert.equal(readFileSync(file, "utf8"), '{ "a": \n');
  });

  it("writes through a link to the file it points to, and says what could not be written", () => {
    const dir = folder();
    writeFileSync(join(dir, "real.json"), "{}\n");
    symlinkSync(join(dir, "real.json"), join(dir, "bosun.json"));
    editJsoncFile(join(dir, "bosun.json"), ["a"], 1);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "real.json"), "utf8")), { a: 1 });
    assert.throws(
      () => editJsoncFile(join(dir, "real.json", "x.json"), ["a"], 1),
      (error: unknown) => error instanceof BosunError && /^cannot write /.test(error.message),
    );
  });

  it("reads the indentation and line ends of the file", () => {
    assert.deepEqual(formattingOf('{\r\n    "a": 1\r\n}'), { insertSpaces: true, tabSize: 4, eol: "\r\n" });
    assert.deepEqual(formattingOf("{}"), { insertSpaces: true, tabSize: 2, eol: "\n" });
  });
});
