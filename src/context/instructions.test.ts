import assert from "node:assert/strict";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { checkFor } from "../../test/support/read-check.js";
import { DEFAULTS } from "../config/defaults.js";
import {
  type ExtraInstruction,
  errnoReason,
  type InstructionFile,
  type InstructionSkip,
  type Instructions,
  instructionsDecision,
  loadInstructions,
  MAX_INSTRUCTION_BYTES,
  nestedDecision,
  nestedInstructions,
  renderInstructions,
} from "./instructions.js";
import { cachePath } from "./instructions-fetch.js";

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp tree: `files` maps relative paths to contents (a trailing "/" makes a folder). */
function tree(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), "bosun-instr-"));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    if (path.endsWith("/")) mkdirSync(full, { recursive: true });
    else {
      mkdirSync(join(full, ".."), { recursive: true });
      writeFileSync(full, content);
    }
  }
  return root;
}

interface Setup {
  base: string;
  globalDir: string;
  repo: string;
  cacheDir: string;
}

function setup(files: Record<string, string>): Setup {
  const base = tree(files);
  for (const dir of ["global", "repo", "cache"]) mkdirSync(join(base, dir), { recursive: true });
  return { base, globalDir: join(base, "global"), repo: join(base, "repo"), cacheDir: join(base, "cache") };
}

function load(
  s: Setup,
  more: { cwd?: string; claudeMd?: boolean; extra?: ExtraInstruction[]; fetchTimeoutMs?: number; home?: string } = {},
): Promise<Instructions> {
  return loadInstructions({
    globalDir: s.globalDir,
    repoRoot: s.repo,
    cwd: more.cwd ?? s.repo,
    claudeMd: more.claudeMd ?? true,
    extra: more.extra ?? [],
    cacheDir: s.cacheDir,
    home: more.home ?? join(s.base, "home"),
    // The workspace is the repository, or the working directory outside one (as workspaceOf says).
    check: checkFor(more.cwd && !more.cwd.startsWith(s.repo) ? more.cwd : s.repo).check,
    fetchTimeoutMs: more.fetchTimeoutMs ?? DEFAULTS.instructions.fetch_timeout_ms,
  });
}

const paths = (files: readonly InstructionFile[]) => files.map((file) => file.path);
const extra = (
  value: string,
  baseDir: string,
  source = "/cfg/bosun.json",
  owner: ExtraInstruction["owner"] = "user",
): ExtraInstruction => ({ value, baseDir, source, owner });

describe("loadInstructions: the walk", () => {
  it("reads the global AGENTS.md first, then root down to cwd, nearest last", async () => {
    const s = setup({
      "global/AGENTS.md": "global rules",
      "repo/AGENTS.md": "root rules",
      "repo/a/CLAUDE.md": "a claude",
      "repo/a/b/AGENTS.md": "b agents",
      "repo/a/b/CLAUDE.md": "b claude (must not be read)",
      "repo/a/b/c/": "",
      "repo/other/AGENTS.md": "sibling, not on the way",
    });
    const cwd = join(s.repo, "a", "b", "c");
    const result = await load(s, { cwd });
    assert.deepEqual(paths(result.files), [
      join(s.globalDir, "AGENTS.md"),
      join(s.repo, "AGENTS.md"),
      join(s.repo, "a", "CLAUDE.md"),
      join(s.repo, "a", "b", "AGENTS.md"),
    ]);
    assert.deepEqual(
      result.files.map((file) => file.origin),
      ["global", "project", "project", "project"],
    );
    assert.deepEqual(
      result.files.map((file) => file.content),
      ["global rules", "root rules", "a claude", "b agents"],
    );
    assert.deepEqual(result.searched, [
      s.globalDir,
      s.repo,
      join(s.repo, "a"),
      join(s.repo, "a", "b"),
      join(s.repo, "a", "b", "c"),
    ]);
    assert.deepEqual(result.skipped, []);
  });

  it("falls back to CLAUDE.md in the global dir too, and not at all with claudeMd false", async () => {
    const s = setup({
      "global/CLAUDE.md": "global claude",
      "repo/CLAUDE.md": "root claude",
      "repo/sub/AGENTS.md": "sub agents",
    });
    const cwd = join(s.repo, "sub");
    const on = await load(s, { cwd });
    assert.deepEqual(paths(on.files), [
      join(s.globalDir, "CLAUDE.md"),
      join(s.repo, "CLAUDE.md"),
      join(s.repo, "sub", "AGENTS.md"),
    ]);
    const off = await load(s, { cwd, claudeMd: false });
    assert.deepEqual(paths(off.files), [join(s.repo, "sub", "AGENTS.md")]);
    assert.equal(off.claudeMd, false);
  });

  it("uses cwd alone when it is outside the repository", async () => {
    const s = setup({ "repo/AGENTS.md": "root", "elsewhere/AGENTS.md": "elsewhere" });
    const result = await load(s, { cwd: join(s.base, "elsewhere") });
    assert.deepEqual(paths(result.files), [join(s.base, "elsewhere", "AGENTS.md")]);
  });

  it("lists an AGENTS.md that is a directory, and does not read CLAUDE.md in its place", async () => {
    const s = setup({ "repo/AGENTS.md/": "", "repo/CLAUDE.md": "claude" });
    const result = await load(s);
    assert.deepEqual(result.files, []);
    assert.deepEqual(result.skipped, [{ path: join(s.repo, "AGENTS.md"), reason: "a directory, not a file" }]);
  });

  it("skips an empty AGENTS.md with a reason", async () => {
    const s = setup({ "repo/AGENTS.md": "  \n\n" });
    const result = await load(s);
    assert.deepEqual(result.files, []);
    assert.deepEqual(result.skipped, [{ path: join(s.repo, "AGENTS.md"), reason: "empty" }]);
  });

  it("skips a file over the size limit with a reason, and takes one exactly at the limit", async () => {
    const s = setup({
      "repo/AGENTS.md": "x".repeat(MAX_INSTRUCTION_BYTES + 1),
      "repo/ok.md": "y".repeat(MAX_INSTRUCTION_BYTES),
    });
    const result = await load(s, { extra: [extra("ok.md", s.repo)] });
    assert.deepEqual(paths(result.files), [join(s.repo, "ok.md")]);
    assert.equal(result.skipped.length, 1);
    assert.equal(result.skipped[0]?.path, join(s.repo, "AGENTS.md"));
    assert.match(result.skipped[0]?.reason ?? "", /over 64 KiB \(65537 bytes\)/);
  });

  it("skips a file that cannot be read (a symlink loop) with a reason", async () => {
    const s = setup({});
    symlinkSync("loop.md", join(s.repo, "loop.md"));
    const result = await load(s, { extra: [extra("loop.md", s.repo)] });
    assert.deepEqual(result.files, []);
    assert.equal(result.skipped[0]?.reason, "a symlink loop (ELOOP)");
  });

  it("says in words why a file could not be read (permission errors too, which root never meets)", () => {
    const error = (code: string) => Object.assign(new Error(code), { code });
    assert.equal(errnoReason(error("EACCES")), "not readable (EACCES)");
    assert.equal(errnoReason(error("EPERM")), "not readable (EPERM)");
    assert.equal(errnoReason(error("ENOENT")), "not found");
    assert.equal(errnoReason(error("EISDIR")), "a directory, not a file");
    assert.equal(errnoReason(error("EIO")), "EIO");
  });
});

describe("loadInstructions: config instructions.files", () => {
  it("reads paths (relative, ~/, absolute) and globs (sorted) after the walk, in config order", async () => {
    const s = setup({
      "repo/AGENTS.md": "root",
      "repo/docs/style.md": "style",
      "repo/rules/b.md": "b",
      "repo/rules/a.md": "a",
      "repo/rules/not-md.txt": "txt",
      "home/notes.md": "notes",
      "abs/abs.md": "abs",
    });
    const result = await load(s, {
      extra: [
        extra("docs/style.md", s.repo, "/repo/bosun.json"),
        extra("rules/*.md", s.repo, "/repo/bosun.json"),
        extra("~/notes.md", "/nowhere", "/global/bosun.json"),
        extra(join(s.base, "abs", "abs.md"), "/nowhere"),
      ],
    });
    assert.deepEqual(paths(result.files), [
      join(s.repo, "AGENTS.md"),
      join(s.repo, "docs", "style.md"),
      join(s.repo, "rules", "a.md"),
      join(s.repo, "rules", "b.md"),
      join(s.base, "home", "notes.md"),
      join(s.base, "abs", "abs.md"),
    ]);
    assert.deepEqual(
      result.files.map((file) => [file.origin, file.source]),
      [
        ["project", undefined],
        ["config", "/repo/bosun.json"],
        ["config", "/repo/bosun.json"],
        ["config", "/repo/bosun.json"],
        ["config", "/global/bosun.json"],
        ["config", "/cfg/bosun.json"],
      ],
    );
    assert.deepEqual(result.skipped, []);
  });

  it("expands an absolute glob and a ~/ glob", async () => {
    const s = setup({ "home/i/one.md": "1", "home/i/two.md": "2", "abs/x/z.md": "z" });
    const result = await load(s, {
      extra: [extra("~/i/*.md", "/nowhere"), extra(join(s.base, "abs", "**", "*.md"), "/nowhere")],
    });
    assert.deepEqual(paths(result.files), [
      join(s.base, "home", "i", "one.md"),
      join(s.base, "home", "i", "two.md"),
      join(s.base, "abs", "x", "z.md"),
    ]);
  });

  it("lists a glob matching nothing, a missing path and a directory, each with its reason and source", async () => {
    const s = setup({ "repo/folder.md/": "" });
    const result = await load(s, {
      extra: [extra("nothing/*.md", s.repo), extra("missing.md", s.repo), extra("folder.md", s.repo)],
    });
    assert.deepEqual(result.files, []);
    assert.deepEqual(result.skipped, [
      { path: join(s.repo, "nothing", "*.md"), reason: "no file matches the glob", source: "/cfg/bosun.json" },
      { path: join(s.repo, "missing.md"), reason: "not found", source: "/cfg/bosun.json" },
      { path: join(s.repo, "folder.md"), reason: "a directory, not a file", source: "/cfg/bosun.json" },
    ]);
  });

  it("includes a file only once (same real path), and says so for config entries", async () => {
    const s = setup({ "repo/AGENTS.md": "root", "repo/extra.md": "extra" });
    symlinkSync(join(s.repo, "extra.md"), join(s.repo, "link.md"));
    const result = await load(s, {
      extra: [extra("AGENTS.md", s.repo), extra("*.md", s.repo), extra("link.md", s.repo)],
    });
    assert.deepEqual(paths(result.files), [join(s.repo, "AGENTS.md"), join(s.repo, "extra.md")]);
    assert.deepEqual(
      result.skipped.map((skip) => [skip.path, skip.reason]),
      [
        [join(s.repo, "AGENTS.md"), "already included"],
        [join(s.repo, "AGENTS.md"), "already included"], // the glob's match
        [join(s.repo, "link.md"), "already included"], // the glob's match, a link to extra.md
        [join(s.repo, "link.md"), "already included"],
      ],
    );
  });

  it("does not read the same folder twice when the global dir is the repository", async () => {
    const s = setup({ "repo/AGENTS.md": "root" });
    const result = await loadInstructions({
      globalDir: s.repo,
      repoRoot: s.repo,
      cwd: s.repo,
      claudeMd: true,
      extra: [],
      cacheDir: s.cacheDir,
      fetchTimeoutMs: DEFAULTS.instructions.fetch_timeout_ms,
      check: checkFor(s.repo).check,
    });
    assert.deepEqual(
      result.files.map((file) => [file.path, file.origin]),
      [[join(s.repo, "AGENTS.md"), "global"]],
    );
  });
});

describe("loadInstructions: URLs", () => {
  let server: Server;
  let url = "";
  let flakyCalls = 0;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === "/good") {
        res.writeHead(200, { "content-type": "text/markdown" });
        res.end("remote rules");
      } else if (req.url === "/flaky") {
        flakyCalls++;
        if (flakyCalls === 1) {
          res.writeHead(200, { "content-type": "text/plain" });
          res.end("flaky v1");
        } else {
          res.writeHead(500);
          res.end("down");
        }
      } else if (req.url === "/json") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      } else if (req.url === "/hang") {
        // never answers
      } else {
        res.writeHead(404);
        res.end("no");
      }
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("fetches a URL, caches the good copy, and notes it was fetched", async () => {
    const s = setup({});
    const result = await load(s, { extra: [extra(`${url}/good`, s.repo)] });
    assert.deepEqual(
      result.files.map((file) => [file.path, file.origin, file.content, file.note, file.source]),
      [[`${url}/good`, "url", "remote rules", "fetched", "/cfg/bosun.json"]],
    );
    assert.equal(readFileSync(cachePath(s.cacheDir, `${url}/good`), "utf8"), "remote rules");
  });

  it("a repository's URL is a web request: fetched only when a web rule allows its host outright", async () => {
    const s = setup({});
    const before = flakyCalls;
    const refused = await load(s, { extra: [extra(`${url}/flaky`, s.repo, "/repo/bosun.json", "repository")] });
    assert.deepEqual(refused.files, []);
    assert.equal(flakyCalls, before, "nothing was fetched");
    assert.match(
      refused.skipped[0]?.reason ?? "",
      /not fetched: .*web rules?|instruction URL is fetched only when a web rule allows/,
    );
    // Your own config's URL is your approval of the ask: it is fetched.
    const yours = await load(s, { extra: [extra(`${url}/good`, s.repo)] });
    assert.equal(yours.files[0]?.content, "remote rules");
  });

  it("serves the last cached copy when the fetch fails, and says so", async () => {
    const s = setup({});
    const first = await load(s, { extra: [extra(`${url}/flaky`, s.repo)] });
    assert.equal(first.files[0]?.note, "fetched");
    const second = await load(s, { extra: [extra(`${url}/flaky`, s.repo)] });
    assert.equal(flakyCalls, 2);
    assert.equal(second.files[0]?.content, "flaky v1");
    assert.equal(second.files[0]?.note, "cached copy (fetch failed: HTTP 500)");
    const decision = instructionsDecision(second, { filesSource: "/cfg/bosun.json" });
    assert.ok(decision.reasons.some((r) => r.rule === "loaded" && r.detail?.includes("cached copy (fetch failed")));
  });

  it("skips a failing URL with no cached copy, with the reason", async () => {
    const s = setup({});
    const result = await load(s, { extra: [extra(`${url}/missing`, s.repo), extra(`${url}/json`, s.repo)] });
    assert.deepEqual(result.files, []);
    assert.deepEqual(result.skipped, [
      { path: `${url}/missing`, reason: "fetch failed: HTTP 404; no cached copy", source: "/cfg/bosun.json" },
      {
        path: `${url}/json`,
        reason: "fetch failed: not text (application/json); no cached copy",
        source: "/cfg/bosun.json",
      },
    ]);
    assert.equal(existsSync(cachePath(s.cacheDir, `${url}/missing`)), false);
  });

  it("honours the timeout against a server that never answers", async () => {
    const s = setup({});
    const started = Date.now();
    const result = await load(s, { extra: [extra(`${url}/hang`, s.repo)], fetchTimeoutMs: 150 });
    const took = Date.now() - started;
    assert.ok(took < 3000, `took ${took} ms`);
    assert.ok(took >= 100, `took only ${took} ms`);
    assert.deepEqual(result.skipped, [
      {
        path: `${url}/hang`,
        reason: "fetch failed: timed out after 150 ms; no cached copy",
        source: "/cfg/bosun.json",
      },
    ]);
  });

  it("refuses plain http to other hosts and other schemes, and fetches a repeated URL once", async () => {
    const s = setup({});
    const result = await load(s, {
      extra: [
        extra("http://example.com/rules.md", s.repo),
        extra("ftp://example.com/rules.md", s.repo),
        extra(`${url}/good`, s.repo),
        extra(`${url}/good`, s.repo),
      ],
    });
    assert.deepEqual(paths(result.files), [`${url}/good`]);
    assert.deepEqual(
      result.skipped.map((skip) => [skip.path, skip.reason]),
      [
        ["http://example.com/rules.md", "plain http is only fetched from localhost; use https"],
        ["ftp://example.com/rules.md", "ftp URLs are not fetched; use https"],
        [`${url}/good`, "already included"],
      ],
    );
  });
});

describe("nestedInstructions", () => {
  it("adds a subfolder's AGENTS.md (and CLAUDE.md fallback) once, outermost first, and never again", async () => {
    const s = setup({
      "repo/AGENTS.md": "root",
      "repo/sub/AGENTS.md": "sub",
      "repo/sub/deep/CLAUDE.md": "deep claude",
      "repo/sub/deep/file.ts": "",
      "repo/sub/other.ts": "",
      "repo/plain/file.ts": "",
    });
    const loaded = await load(s);
    assert.deepEqual(paths(loaded.files), [join(s.repo, "AGENTS.md")]);
    const state = { repoRoot: s.repo, claudeMd: true, loaded: loaded.loaded, check: checkFor(s.repo).check };

    const added = nestedInstructions(join(s.repo, "sub", "deep", "file.ts"), state);
    assert.deepEqual(
      added.map((file) => [file.path, file.origin, file.content]),
      [
        [join(s.repo, "sub", "AGENTS.md"), "nested", "sub"],
        [join(s.repo, "sub", "deep", "CLAUDE.md"), "nested", "deep claude"],
      ],
    );
    assert.deepEqual(nestedInstructions(join(s.repo, "sub", "deep", "file.ts"), state), []);
    assert.deepEqual(nestedInstructions(join(s.repo, "sub", "other.ts"), state), []);
    assert.deepEqual(nestedInstructions(join(s.repo, "plain", "file.ts"), state), []);
    assert.deepEqual(nestedInstructions(join(s.repo, "README.md"), state), []);
  });

  it("respects claudeMd false, resolves relative paths from cwd, and lists skips when asked", () => {
    const s = setup({ "repo/a/CLAUDE.md": "claude", "repo/b/AGENTS.md/": "", "repo/b/x.ts": "" });
    const { check } = checkFor(s.repo);
    const off = { repoRoot: s.repo, claudeMd: false, loaded: new Set<string>(), check };
    assert.deepEqual(nestedInstructions(join(s.repo, "a", "x.ts"), off), []);
    const skipped: { path: string; reason: string }[] = [];
    const on = { repoRoot: s.repo, claudeMd: true, loaded: new Set<string>(), cwd: join(s.repo, "a"), skipped, check };
    assert.deepEqual(paths(nestedInstructions("x.ts", on)), [join(s.repo, "a", "CLAUDE.md")]);
    assert.deepEqual(nestedInstructions("../b/x.ts", on), []);
    assert.deepEqual(skipped, [{ path: join(s.repo, "b", "AGENTS.md"), reason: "a directory, not a file" }]);
  });

  it("gives nothing for files outside the repository", () => {
    const s = setup({ "repo/AGENTS.md": "root", "outside/AGENTS.md": "outside", "outside/f.ts": "" });
    const state = { repoRoot: s.repo, claudeMd: true, loaded: new Set<string>(), check: checkFor(s.repo).check };
    assert.deepEqual(nestedInstructions(join(s.base, "outside", "f.ts"), state), []);
    assert.deepEqual(nestedInstructions("/etc/passwd", state), []);
    assert.equal(state.loaded.size, 0);
  });
});

describe("renderInstructions", () => {
  it("renders each file as a block naming its path, in order; empty when none", () => {
    assert.equal(renderInstructions([]), "");
    const text = renderInstructions([
      { path: "/g/AGENTS.md", origin: "global", content: "\n\none\n\n" },
      { path: "https://x/r.md", origin: "url", content: "two", note: "fetched" },
    ]);
    assert.equal(text, "Instructions from /g/AGENTS.md:\none\n\nInstructions from https://x/r.md:\ntwo");
  });
});

describe("instructionsDecision", () => {
  const base = (files: InstructionFile[], skipped: Instructions["skipped"] = [], claudeMd = true): Instructions => ({
    files,
    skipped,
    loaded: new Set(),
    searched: ["/g", "/repo"],
    claudeMd,
  });

  it("is held by code when only the walk spoke, with one reason per loaded and skipped file", () => {
    const decision = instructionsDecision(
      base([{ path: "/repo/AGENTS.md", origin: "project", content: "abcd" }], [{ path: "/repo/x", reason: "empty" }]),
      {},
    );
    assert.equal(decision.seat, "context.instructions");
    assert.equal(decision.holder, "code");
    assert.deepEqual(decision.answer, ["/repo/AGENTS.md"]);
    assert.deepEqual(decision.reasons, [
      { rule: "searched", detail: "AGENTS.md (else CLAUDE.md) in /g, /repo" },
      { rule: "loaded", detail: "/repo/AGENTS.md: project, 4 chars", source: "/repo/AGENTS.md" },
      { rule: "skipped", detail: "/repo/x: empty" },
      { rule: "default", detail: "1 loaded (project 1), 1 skipped", decisive: true },
    ]);
  });

  it("is held by config when a file came from instructions.files", () => {
    const decision = instructionsDecision(
      base(
        [
          { path: "/repo/AGENTS.md", origin: "project", content: "a" },
          { path: "https://x/r.md", origin: "url", content: "rr", note: "fetched", source: "/repo/bosun.json" },
        ],
        [{ path: "/repo/none/*.md", reason: "no file matches the glob", source: "/repo/bosun.json" }],
      ),
      { filesSource: "/repo/bosun.json" },
    );
    assert.equal(decision.holder, "config");
    assert.deepEqual(decision.answer, ["/repo/AGENTS.md", "https://x/r.md"]);
    assert.deepEqual(decision.reasons.slice(2), [
      {
        rule: "loaded",
        detail: "https://x/r.md: url, 2 chars, fetched",
        source: "/repo/bosun.json",
        key: "instructions.files",
      },
      {
        rule: "skipped",
        detail: "/repo/none/*.md: no file matches the glob",
        source: "/repo/bosun.json",
        key: "instructions.files",
      },
      {
        rule: "instructions.files",
        detail: "2 loaded (project 1, url 1), 1 skipped",
        source: "/repo/bosun.json",
        key: "instructions.files",
        decisive: true,
      },
    ]);
  });

  it("is held by config when config turned claude_md off, and by code when it was off otherwise", () => {
    const result = base([], [], false);
    const byConfig = instructionsDecision(result, { claudeMdFromConfig: "/g/bosun.json" });
    assert.equal(byConfig.holder, "config");
    assert.deepEqual(byConfig.reasons, [
      { rule: "searched", detail: "AGENTS.md in /g, /repo" },
      {
        rule: "claude_md off",
        detail: "CLAUDE.md is not read",
        source: "/g/bosun.json",
        key: "instructions.claude_md",
      },
      {
        rule: "instructions.claude_md",
        detail: "0 loaded, 0 skipped",
        source: "/g/bosun.json",
        key: "instructions.claude_md",
        decisive: true,
      },
    ]);
    assert.deepEqual(instructionsDecision(result, {}).holder, "code");
    assert.deepEqual(instructionsDecision(base([]), { claudeMdFromConfig: "/g/bosun.json" }).holder, "code");
  });

  it("records nested additions as code's decision", () => {
    const decision = nestedDecision(
      [{ path: "/repo/sub/AGENTS.md", origin: "nested", content: "abc" }],
      "/repo/sub/f.ts",
    );
    assert.equal(decision.holder, "code");
    assert.deepEqual(decision.answer, ["/repo/sub/AGENTS.md"]);
    assert.equal(decision.reasons.at(-1)?.decisive, true);
    assert.equal(decision.reasons.at(-1)?.detail, "1 added on reading /repo/sub/f.ts, 0 skipped");
  });
});

describe("instruction files pass the read rules (a repository's must be allowed outright)", () => {
  it("skips a repository's AGENTS.md linked to .env, a CLAUDE.md linked out of the workspace, and a hard link to .env, each with why", async () => {
    const s = setup({ "repo/.env": "SECRET=hunter2\n", "outside/private.md": "PRIVATE\n", "repo/b/.keep": "" });
    symlinkSync(join(s.repo, ".env"), join(s.repo, "AGENTS.md"));
    mkdirSync(join(s.repo, "a"));
    symlinkSync(join(s.base, "outside", "private.md"), join(s.repo, "a", "CLAUDE.md"));
    linkSync(join(s.repo, ".env"), join(s.repo, "b", "AGENTS.md"));
    const result = await load(s, { cwd: join(s.repo, "a") });
    assert.deepEqual(result.files, []);
    const reasons = Object.fromEntries(result.skipped.map((skip) => [skip.path, skip.reason]));
    assert.match(reasons[join(s.repo, "AGENTS.md")] ?? "", /^a link to .*\/repo\/\.env: read:.*: ask — default rule/);
    assert.match(
      reasons[join(s.repo, "a", "CLAUDE.md")] ?? "",
      /^a link to .*\/outside\/private\.md: external_directory:/,
    );

    const skipped: InstructionSkip[] = [];
    const state = { repoRoot: s.repo, claudeMd: true, loaded: result.loaded, skipped, check: checkFor(s.repo).check };
    assert.deepEqual(nestedInstructions(join(s.repo, "b", "x.ts"), state), []);
    assert.match(skipped[0]?.reason ?? "", /^another name \(a hard link\) of .*\/repo\/\.env: /);
  });

  it("a repository's instructions.files glob that matches .env (or a link to it) is skipped; the user's own config naming it is the user's approval", async () => {
    const s = setup({ "repo/.env": "SECRET=hunter2\n", "repo/docs/ok.md": "OK\n" });
    symlinkSync(join(s.repo, ".env"), join(s.repo, "docs", "leak.md"));
    const fromRepo = await load(s, {
      extra: [
        extra("docs/*.md", s.repo, join(s.repo, "bosun.json"), "repository"),
        extra(".env*", s.repo, join(s.repo, "bosun.json"), "repository"),
      ],
    });
    assert.deepEqual(paths(fromRepo.files), [join(s.repo, "docs", "ok.md")]);
    assert.deepEqual(
      fromRepo.skipped.map((skip) => [skip.path, /nobody approved it/.test(skip.reason), skip.source]),
      [
        [join(s.repo, "docs", "leak.md"), true, join(s.repo, "bosun.json")],
        [join(s.repo, ".env"), true, join(s.repo, "bosun.json")],
      ],
    );
    const fromUser = await load(s, { extra: [extra(".env", s.repo, "/home/me/bosun.json", "user")] });
    assert.deepEqual(paths(fromUser.files), [join(s.repo, ".env")]);
  });

  it("never reads a file the rules deny, even for the user's own config or the global folder", async () => {
    const s = setup({ "repo/.env": "SECRET=hunter2\n" });
    symlinkSync(join(s.repo, ".env"), join(s.globalDir, "AGENTS.md"));
    const check = checkFor(s.repo, { flags: { deny: ["read:**/.env"] } }).check;
    const result = await loadInstructions({
      globalDir: s.globalDir,
      repoRoot: s.repo,
      cwd: s.repo,
      claudeMd: true,
      extra: [extra(".env", s.repo, "/home/me/bosun.json", "user")],
      cacheDir: s.cacheDir,
      fetchTimeoutMs: DEFAULTS.instructions.fetch_timeout_ms,
      check,
    });
    assert.deepEqual(result.files, []);
    assert.equal(result.skipped.length, 2);
    for (const skip of result.skipped) assert.match(skip.reason, /deny/);
  });

  it("reads the global AGENTS.md, outside the workspace by nature", async () => {
    const s = setup({ "global/AGENTS.md": "GLOBAL\n" });
    const result = await load(s);
    assert.deepEqual(paths(result.files), [join(s.globalDir, "AGENTS.md")]);
  });
});
