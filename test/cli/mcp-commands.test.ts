import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { startHttpMcpServer } from "../support/mcp-http-server.js";
import { createWorkspace, type RunResult, type Workspace } from "../support/workspace.js";

/**
 * `bosun mcp list|get|add|remove|test`: the real binary in a temp git repository with its own
 * BOSUN_HOME, against real servers (server-everything, a broken one, an HTTP one). No model.
 */

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const everything = { command: process.execPath, args: [EVERYTHING] };
// Says why on stderr and exits before it ever answers.
const broken = {
  command: process.execPath,
  args: ["-e", "console.error('starting'); console.error('fatal: GITHUB_TOKEN is not set'); process.exit(3)"],
};
// Leaves a file behind if it is ever started: a repository's server must not be, unapproved.
const marker = { command: process.execPath, args: ["-e", "require('fs').writeFileSync('started.txt', 'x')"] };

let ws: Workspace;
const userFile = () => join(ws.home, "bosun.json");
const bosun = (args: string[]) => ws.run(["mcp", ...args]);

/** An MCP server over stdio in a few lines of plain Node: initialize, an empty tools/list, nothing else. */
const TINY_SERVER = `
let buffer = "";
const send = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\\n");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf("\\n")) >= 0) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    if (message.id === undefined) continue;
    if (message.method === "initialize")
      send(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "tiny", version: "1.0.0" } });
    else if (message.method === "tools/list") send(message.id, { tools: [] });
    else process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no such method" } }) + "\\n");
  }
});
`;
const noStack = (result: RunResult) => assert.doesNotMatch(result.stderr, /\n\s+at /);

beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

describe("bosun mcp add and remove", () => {
  it("add writes your config keeping its comments; the same name again needs --force; remove says which file", async () => {
    writeFileSync(userFile(), '{\n  // my settings\n  "retry": { "max_attempts": 2 }, // two\n}\n');
    const added = await bosun(["add", "gh", "--env", "GITHUB_TOKEN={env:GH_TOKEN}", "--", "gh-mcp", "stdio"]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, new RegExp(`added MCP server "gh" in ${userFile()} \\(user config\\)`));
    const text = readFileSync(userFile(), "utf8");
    assert.match(text, /\/\/ my settings\n {2}"retry": \{ "max_attempts": 2 \}, \/\/ two\n {2}"mcp": \{/);
    const config = JSON.parse((await ws.run(["config", "--json"], { env: { GH_TOKEN: "t" } })).stdout);
    assert.deepEqual(config.mcp.gh, { command: "gh-mcp", args: ["stdio"], env: { GITHUB_TOKEN: "{env:GH_TOKEN}" } });

    const again = await bosun(["add", "gh", "--", "other"]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already has an MCP server "gh" \(--force replaces it\)/);
    const forced = await bosun(["add", "gh", "--force", "--", "other"]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /replaced MCP server "gh"/);
    assert.match(readFileSync(userFile(), "utf8"), /"command": "other"/);
    assert.match(readFileSync(userFile(), "utf8"), /\/\/ two/);

    const removed = await bosun(["remove", "gh"]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(removed.stdout, `removed MCP server "gh" from ${userFile()}\n`);
    assert.doesNotMatch(readFileSync(userFile(), "utf8"), /"gh"/);
    assert.match(readFileSync(userFile(), "utf8"), /\/\/ my settings/);
  });

  it("--scope project writes the repository's bosun.json; a url server takes headers", async () => {
    ws.write("bosun.json", '{\n\t// the team\'s\n\t"mode": "approve"\n}\n');
    const added = await bosun([
      "add",
      "docs",
      "--scope",
      "project",
      "--url",
      "https://mcp.example.com/mcp",
      "--header",
      "Authorization: Bearer {env:DOCS_TOKEN}",
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /\(project config\)\n.*bosun mcp test docs --trust-project/);
    assert.equal(
      readFileSync(join(ws.dir, "bosun.json"), "utf8"),
      '{\n\t// the team\'s\n\t"mode": "approve",\n\t"mcp": {\n\t\t"docs": {\n\t\t\t"url": "https://mcp.example.com/mcp",\n\t\t\t"headers": {\n\t\t\t\t"Authorization": "Bearer {env:DOCS_TOKEN}"\n\t\t\t}\n\t\t}\n\t}\n}\n',
    );
    const removed = await bosun(["remove", "docs", "--scope", "user"]);
    assert.equal(removed.code, 1);
    assert.match(removed.stderr, /"docs" is configured in .*bosun\.json \(project\), not in the user config/);
  });

  it("a server of .mcp.json is not removed: the error names the file; an unknown name is named", async () => {
    ws.write(".mcp.json", JSON.stringify({ mcpServers: { claude: { command: "x" } } }));
    const removed = await bosun(["remove", "claude"]);
    assert.equal(removed.code, 1);
    assert.match(
      removed.stderr,
      new RegExp(`configured in ${join(ws.dir, ".mcp.json")} \\(project, Claude Code's file\\)`),
    );
    assert.match(removed.stderr, /bosun does not edit that file/);
    const unknown = await bosun(["remove", "claud"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no MCP server "claud" is configured here — did you mean "claude"\?/);
    noStack(unknown);
  });

  it("bad flags are usage errors (exit 2), nothing written, no stack trace", async () => {
    writeFileSync(userFile(), "{}\n");
    for (const args of [
      ["add", "x"],
      ["add", "x", "--url", "https://h/mcp", "--", "cmd"],
      ["add", "x", "--url", "ftp://h"],
      ["add", "x", "--scope", "local", "--", "cmd"],
      ["add", "x", "--env", "novalue", "--", "cmd"],
      ["add", "x", "--header", "A: b", "--", "cmd"],
      ["add", "x y", "--", "cmd"],
      ["add", "x", "--bogus", "--", "cmd"],
      ["list", "--timeout", "soon"],
      ["remove", "x", "--scope", "everywhere"],
    ]) {
      const result = await bosun(args);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      noStack(result);
    }
    assert.equal(readFileSync(userFile(), "utf8"), "{}\n");
  });
});

describe("bosun mcp list and get", () => {
  it("lists every layer's servers with origin and state: connected, failed with its stderr, disabled, needs trust (never started)", async () => {
    writeFileSync(
      userFile(),
      JSON.stringify({ mcp: { everything, broken, off: { ...everything, enabled: false } } }, null, 2),
    );
    ws.write(".mcp.json", JSON.stringify({ mcpServers: { repo: marker } }, null, 2));
    const result = await bosun(["list"]);
    assert.equal(result.code, 0, result.stderr);
    const line = (name: string) => result.stdout.split("\n").find((l) => l.startsWith(`${name} `)) ?? "";
    assert.match(line("everything"), new RegExp(`stdio +global ${userFile()}:4 +connected · \\d+ tools$`));
    assert.match(line("broken"), /global .*bosun\.json:\d+ +failed: /);
    assert.match(result.stdout, /\n {4}\| fatal: GITHUB_TOKEN is not set\n/);
    assert.match(line("off"), / disabled$/);
    assert.match(
      line("repo"),
      new RegExp(`project ${join(ws.dir, ".mcp.json")}:\\d+ +needs trust \\(not run: nobody approved it`),
    );
    assert.equal(existsSync(join(ws.dir, "started.txt")), false, "the repository's server was never started");

    const json = JSON.parse((await bosun(["list", "--json"])).stdout) as Array<Record<string, unknown>>;
    const repo = json.find((s) => s.name === "repo");
    assert.equal(repo?.start, "needs trust");
    assert.equal(repo?.fromProject, true);
    const check = (name: string) => json.find((s) => s.name === name)?.check as { status?: string; tools?: number };
    assert.equal(check("everything").status, "connected");
    assert.ok((check("everything").tools ?? 0) > 0);
    assert.equal(check("broken").status, "failed");
    assert.equal(existsSync(join(ws.dir, "started.txt")), false);
  });

  it("a repository's server that reads your environment is listed, not started, until the repository is trusted", async () => {
    ws.write("bosun.json", JSON.stringify({ mcp: { refs: { ...marker, args: [...marker.args, "{env:MY_ARG}"] } } }));
    const result = await ws.run(["mcp", "list"], { env: { MY_ARG: "x" } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^refs +stdio +project .*bosun\.json:1 +needs trust \(it reads your environment or files, and the repository's config is not trusted \(seat project\.trust; --trust-project\)\)$/m,
    );
    assert.equal(existsSync(join(ws.dir, "started.txt")), false);
  });

  it("--no-check starts nothing", async () => {
    writeFileSync(userFile(), JSON.stringify({ mcp: { mine: marker } }));
    const result = await bosun(["list", "--no-check"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^mine +stdio +global .* not checked\n$/);
    assert.equal(existsSync(join(ws.dir, "started.txt")), false);
  });

  it("get shows its config with secrets as their references, where it came from, and its tools, resources and prompts", async () => {
    writeFileSync(
      userFile(),
      JSON.stringify({ mcp: { everything: { ...everything, env: { API_TOKEN: "{env:MY_TOKEN}", PLAIN: "s3cret" } } } }),
    );
    const result = await ws.run(["mcp", "get", "everything"], { env: { MY_TOKEN: "t0ken" } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^everything: stdio ${process.execPath} ${EVERYTHING}\n`));
    assert.match(result.stdout, new RegExp(`origin: global ${userFile()}:1`));
    assert.match(result.stdout, /"API_TOKEN": "\{env:MY_TOKEN\}"/);
    assert.match(result.stdout, /"PLAIN": "<redacted>"/);
    assert.doesNotMatch(result.stdout, /t0ken|s3cret/);
    assert.match(result.stdout, /server: mcp-servers\/everything \S+/);
    assert.match(result.stdout, /\n {4}echo — Echoes back the input string \[read-only, idempotent\]\n/);
    assert.match(result.stdout, /\n {2}resources: \d+\n/);
    assert.match(result.stdout, /\n {2}prompts: \d+\n {4}simple-prompt — /);

    const json = JSON.parse((await bosun(["get", "everything", "--json"])).stdout);
    assert.equal(json.origin.file, userFile());
    assert.ok(json.offers.tools.some((t: { name: string }) => t.name === "echo"));
    const missing = await bosun(["get", "everythin"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /did you mean "everything"\?/);
  });

  it("a url server that answers 401 needs sign-in; with its header it connects", async () => {
    const remote = await startHttpMcpServer({ token: "s3cret" });
    try {
      writeFileSync(userFile(), "{}\n");
      assert.equal((await bosun(["add", "remote", "--url", remote.url])).code, 0);
      const unsigned = await bosun(["list"]);
      assert.match(unsigned.stdout, /^remote +http, then sse +global .* needs sign-in \(/m);
      const added = await bosun([
        "add",
        "remote",
        "--force",
        "--url",
        remote.url,
        "-H",
        "Authorization: Bearer s3cret",
      ]);
      assert.match(added.stderr, /Authorization is written as given; \{env:NAME\} keeps the value out of the file/);
      const signed = await bosun(["list"]);
      assert.match(signed.stdout, /^remote +http, then sse +global .* connected · 1 tool$/m);
    } finally {
      await remote.close();
    }
  });
});

describe("bosun mcp test", () => {
  it("says each step of a server that works, and exits 0", async () => {
    writeFileSync(userFile(), JSON.stringify({ mcp: { everything: { ...everything, enabled: false } } }));
    const result = await bosun(["test", "everything"]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^config: global .* \(disabled; tested anyway\)\nstart: stdio /);
    assert.match(result.stdout, /\ninitialize: ok in \d+ ms \(stdio \S+\)\nserver: mcp-servers\/everything /);
    assert.match(result.stdout, /\ncapabilities: .*prompts, resources.*tools\ntools: \d+\n/);
    assert.match(result.stdout, /\nresources: \d+\nprompts: \d+\n/);
  });

  it("a server that fails: its message and last stderr lines, exit 1, no stack trace", async () => {
    writeFileSync(userFile(), JSON.stringify({ mcp: { broken } }));
    const result = await bosun(["test", "broken"]);
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /initialize: failed after \d+ ms: .*\nstderr \(last lines\):\n {2}\| starting\n {2}\| fatal: GITHUB_TOKEN is not set\n/,
    );
    noStack(result);
  });

  it("a repository's server is not started unless --trust-project, and then sealed", async () => {
    // Sealed, a server sees the workspace but not this checkout (which may sit under /tmp): so a
    // server of the workspace's own, answering initialize and tools/list without any library.
    ws.write("tiny-server.cjs", TINY_SERVER);
    const tiny = { command: process.execPath, args: ["tiny-server.cjs"] };
    ws.write("bosun.json", JSON.stringify({ mcp: { repo: marker, tiny } }));
    const refused = await bosun(["test", "repo"]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not started: not run: nobody approved it[^\n]*\n\(--trust-project starts it once/);
    assert.equal(existsSync(join(ws.dir, "started.txt")), false);
    const trusted = await bosun(["test", "tiny", "--trust-project"]);
    assert.equal(trusted.code, 0, trusted.stderr + trusted.stdout);
    assert.match(trusted.stdout, /\(sealed: a repository's server\)\ninitialize: ok/);
  });
});
