import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "../../errors.js";
import { scopeOf, serverEntry } from "./mcp-entry.js";

const refused = (run: () => unknown, pattern: RegExp) =>
  assert.throws(run, (error: unknown) => error instanceof UsageError && pattern.test(error.message));

describe("serverEntry", () => {
  it("a command with its args and env; a url with its type and headers", () => {
    assert.deepEqual(serverEntry("gh", ["gh-mcp", "stdio"], { env: ["TOKEN={env:GH}", "A=b=c "] }), {
      command: "gh-mcp",
      args: ["stdio"],
      env: { TOKEN: "{env:GH}", A: "b=c " },
    });
    assert.deepEqual(
      serverEntry("docs", [], { url: "https://h/mcp", transport: "sse", header: ["Authorization: Bearer {env:T}"] }),
      { type: "sse", url: "https://h/mcp", headers: { Authorization: "Bearer {env:T}" } },
    );
    assert.deepEqual(serverEntry("x", ["x"], { required: true, disabled: true }), {
      command: "x",
      required: true,
      enabled: false,
    });
  });

  it("flags that do not fit are usage errors naming them", () => {
    refused(() => serverEntry("a b", ["x"], {}), /not a server name/);
    refused(() => serverEntry("a", ["x"], { url: "https://h" }), /either --url or a command/);
    refused(() => serverEntry("a", [], {}), /give a command after --/);
    refused(() => serverEntry("a", ["x"], { transport: "http" }), /--transport http needs --url/);
    refused(() => serverEntry("a", ["x"], { transport: "ws" }), /--transport ws: stdio, http or sse/);
    refused(() => serverEntry("a", ["x"], { header: ["A: b"] }), /--header is for a --url server/);
    refused(() => serverEntry("a", [], { url: "https://h", env: ["A=b"] }), /--env is for a stdio server/);
    refused(() => serverEntry("a", [], { url: "ftp://h" }), /an http\(s\) URL/);
    refused(() => serverEntry("a", ["x"], { env: ["novalue"] }), /--env novalue: expected K=V/);
    refused(() => serverEntry("a", [], { url: "https://h", header: ["=x"] }), /--header =x/);
  });

  it("--scope is user or project", () => {
    assert.equal(scopeOf(undefined), undefined);
    assert.equal(scopeOf("project"), "project");
    refused(() => scopeOf("local"), /--scope local: user or project/);
  });
});
