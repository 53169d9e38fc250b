import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decideAgent } from "../../agents/select.js";
import { loadConfig } from "../../config/load.js";
import type { CallDescription } from "../../contracts/requests.js";
import { builtinTools } from "../../tools/registry.js";
import { authorize } from "../gate/authorize.js";
import { GLOB_MATCH_LIMIT } from "../shell/glob.js";
import { formatRequests, shellRequests } from "./call-requests.js";
import { buildAuthority } from "./layers.js";

/** What a built-in tool says a call would do, run from `cwd` in workspace `cwd`. */
function describeCall(name: string, input: Record<string, unknown>, cwd: string): Promise<CallDescription> {
  const tool = builtinTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.requests(input, { cwd, workspace: cwd });
}

describe("describeCall", () => {
  let root: string;
  let work: string;
  let outside: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-describe-")));
    work = join(root, "work");
    outside = join(root, "outside");
    mkdirSync(work);
    mkdirSync(outside);
    symlinkSync(outside, join(work, "link"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("describes reading tools as read requests, resolved through symlinks", async () => {
    assert.deepEqual(await describeCall("read", { path: "a.txt" }, work), {
      requests: [{ action: "read", resource: join(work, "a.txt") }],
    });
    assert.deepEqual(await describeCall("list", {}, work), { requests: [{ action: "read", resource: work }] });
    assert.deepEqual(await describeCall("grep", { pattern: "x", path: "link/secret" }, work), {
      requests: [
        { action: "read", resource: join(outside, "secret") },
        { action: "external_directory", resource: join(outside, "secret") },
      ],
    });
  });

  it("describes edit and write as edit requests, ../ normalized", async () => {
    assert.deepEqual(await describeCall("write", { path: "sub/../b.txt", content: "" }, work), {
      requests: [{ action: "edit", resource: join(work, "b.txt") }],
    });
    assert.deepEqual(
      (await describeCall("edit", { path: "link/x", old_string: "a", new_string: "b" }, work)).requests,
      [
        { action: "edit", resource: join(outside, "x") },
        { action: "external_directory", resource: join(outside, "x") },
      ],
    );
  });

  it("reads where a glob pattern really searches: its literal folders, ../ and absolute ones too", async () => {
    assert.deepEqual((await describeCall("glob", { pattern: "**/*.ts" }, work)).requests, [
      { action: "read", resource: work },
    ]);
    assert.deepEqual((await describeCall("glob", { pattern: "src/**/*.ts" }, work)).requests, [
      { action: "read", resource: join(work, "src") },
    ]);
    assert.deepEqual((await describeCall("glob", { pattern: "../outside/*" }, work)).requests, [
      { action: "read", resource: outside },
      { action: "external_directory", resource: outside },
    ]);
    assert.deepEqual((await describeCall("glob", { pattern: "/etc/*.conf" }, work)).requests, [
      { action: "read", resource: "/etc" },
      { action: "external_directory", resource: "/etc" },
    ]);
    assert.match((await describeCall("glob", { pattern: "*/../../*" }, work)).problem ?? "", /climbs out/);
  });

  it("resolves the files a shell line writes through symlinks: link/f is outside", async () => {
    const described = await describeCall("shell", { command: "echo x > link/f" }, work);
    assert.deepEqual(
      described.requests.filter((r) => r.action !== "shell"),
      [
        { action: "edit", resource: join(outside, "f") },
        { action: "external_directory", resource: join(outside, "f") },
      ],
    );
  });

  it("splits a shell line into its simple commands and the files it writes", async () => {
    const described = await describeCall("shell", { command: "git status && echo hi > out.txt" }, work);
    const text = formatRequests(described);
    assert.match(text, /shell:git status \(read-only\)/);
    assert.match(text, /shell:echo hi/);
    assert.ok(text.includes(`edit:${join(work, "out.txt")}`), text);
  });

  it("describes a /dev/tcp redirection as network: a command not proven read-only and a web request", async () => {
    const described = await describeCall("shell", { command: "cat < /dev/tcp/example.com/80" }, work);
    assert.deepEqual(
      described.requests.filter((r) => r.action === "web" || r.readOnly === false),
      [
        { action: "shell", resource: "< /dev/tcp/example.com/80", readOnly: false },
        { action: "web", resource: "example.com" },
      ],
    );
  });

  it("reads the files a sed script's r and R commands name, as read requests", async () => {
    writeFileSync(join(work, ".env"), "SECRET=1\n");
    const described = await describeCall("shell", { command: "sed -n '1r .env' notes.txt" }, work);
    assert.ok(
      described.requests.some((r) => r.action === "read" && r.resource === join(work, ".env")),
      formatRequests(described),
    );
  });

  it("reads the file xargs -a takes its arguments from", async () => {
    writeFileSync(join(work, ".env"), "SECRET=1\n");
    const described = await describeCall("shell", { command: "xargs -a .env echo" }, work);
    assert.ok(
      described.requests.some((r) => r.action === "read" && r.resource === join(work, ".env")),
      formatRequests(described),
    );
  });

  it("does not call git read-only where it would use a bare repository committed to the tree", async () => {
    // git walks up from where it runs; a folder with HEAD, objects/ and refs/ is a repository
    // whose config (core.fsmonitor, diff.external, ...) makes even `git status` run programs.
    mkdirSync(join(work, ".git"), { recursive: true });
    const bare = join(work, "fixtures", "evil");
    mkdirSync(join(bare, "objects"), { recursive: true });
    mkdirSync(join(bare, "refs"), { recursive: true });
    writeFileSync(join(bare, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(bare, "config"), "[core]\n\tfsmonitor = touch pwned\n");
    const readOnly = async (command: string) =>
      (await describeCall("shell", { command }, work)).requests
        .filter((r) => r.action === "shell")
        .map((r) => r.readOnly);
    assert.deepEqual(await readOnly("git status"), [true]);
    assert.deepEqual(await readOnly("git log -p"), [true]);
    assert.deepEqual(await readOnly("git -C fixtures/evil status"), [false]);
    assert.deepEqual(await readOnly("cd fixtures/evil/refs && git log"), [true, false]);
    assert.deepEqual(await readOnly("git -C .git/refs log"), [true]); // the workspace's own .git
    // find -execdir runs it in every folder it finds: which repository is not known.
    assert.deepEqual(await readOnly("find . -name HEAD -execdir git log \\;"), [true, false]);
  });

  it("says when a shell line cannot be described", async () => {
    const described = await describeCall("shell", { command: "echo 'unclosed" }, work);
    assert.ok(described.problem);
    assert.match(formatRequests(described), /not fully described/);
  });
});

describe("shellRequests: glob operands are the files they match", () => {
  let root: string;
  let ws: string;
  let outside: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-glob-requests-")));
    ws = join(root, "ws");
    outside = join(root, "outside");
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(join(ws, "src"));
    mkdirSync(join(ws, "many"));
    mkdirSync(outside);
    writeFileSync(join(ws, ".env"), "SECRET=1\n");
    writeFileSync(join(ws, "src", "a.ts"), "");
    writeFileSync(join(outside, "secret.txt"), "");
    symlinkSync(outside, join(ws, "link"));
    for (let i = 0; i <= GLOB_MATCH_LIMIT; i++) writeFileSync(join(ws, "many", `f${i}`), "");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const reads = async (command: string): Promise<string[]> =>
    (await shellRequests(command, { cwd: ws, workspace: ws })).requests
      .filter((r) => r.action === "read" || r.action === "external_directory")
      .map((r) => `${r.action}:${r.resource.startsWith(root) ? r.resource.slice(root.length) : r.resource}`);

  it("reads each file a pattern matches, in every spelling bash expands", async () => {
    for (const command of ["cat .en?", "cat .[e]nv", "head {.env,x}", "cat ./src/../.e*", "cat < .en*", "cat '.e'n?"]) {
      assert.ok((await reads(command)).includes("read:/ws/.env"), `${command}: ${await reads(command)}`);
    }
    assert.deepEqual(await reads("cat *.env"), []); // `*` does not match a leading dot
    assert.deepEqual(await reads("wc -l src/*.ts"), ["read:/ws/src/a.ts"]);
  });

  it("matches the widest way once the line may turn on dotglob, nocaseglob or globstar", async () => {
    assert.ok((await reads("shopt -s dotglob; cat *nv")).includes("read:/ws/.env"));
    assert.ok((await reads("GLOBIGNORE=x; cat *nv")).includes("read:/ws/.env"));
    assert.ok((await reads("shopt -s nocaseglob; cat .EN?")).includes("read:/ws/.env"));
  });

  it("adds external_directory for a match outside the workspace", async () => {
    assert.deepEqual(await reads("cat link/*.txt"), [
      "read:/outside/secret.txt",
      "external_directory:/outside/secret.txt",
    ]);
  });

  it("treats an operand it cannot expand as any file: past the bound, or from an unknown directory", async () => {
    assert.deepEqual(await reads("cat many/f*"), ["read:*", "external_directory:*"]);
    assert.ok((await reads('cd "$d"; cat .en?')).includes("read:*"));
  });

  it("lets the read rules decide a matched file: --allow 'shell:cat *' still asks for .env, denies it when denied", async () => {
    const loaded = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    const ctx = (flags: { allow?: string[]; deny?: string[] }) =>
      buildAuthority({
        config: loaded,
        agent: decideAgent(undefined, loaded).agent,
        mode: { name: "approve", holder: "code" },
        flags,
        cwd: ws,
        workspace: ws,
        home: join(root, "home"),
      });
    const described = await shellRequests("cat .en?", { cwd: ws, workspace: ws });
    assert.equal(authorize(described, ctx({ allow: ["shell:cat *"] })).answer, "ask");
    assert.equal(authorize(described, ctx({ allow: ["shell:cat *"], deny: ["read:**/.env"] })).answer, "deny");
    const plain = await shellRequests("cat src/*.ts", { cwd: ws, workspace: ws });
    assert.equal(authorize(plain, ctx({ allow: ["shell:cat *"] })).answer, "allow");
  });
});
