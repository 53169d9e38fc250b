import assert from "node:assert/strict";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { decideAgent } from "../agents/select.js";
import { ConfigError } from "../errors.js";
import { projectLoosening, withoutLoosening } from "../permission/trust/project-trust.js";
import { type LoadedConfig, loadConfig } from "./load.js";

let root: string;
let home: string;
let repo: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bosun-agent-files-"));
  home = join(root, "home");
  repo = join(root, "repo");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function load(cwd = repo, filterProject?: (data: unknown) => unknown): LoadedConfig {
  return loadConfig({
    cwd,
    env: { BOSUN_HOME: home, HOME: home },
    flags: [],
    ...(filterProject ? { filterProject } : {}),
  });
}

const agent = (config: LoadedConfig, name: string) => config.config.agent?.[name];

describe("agent files as config layers", () => {
  it("a .bosun/agents file is agent.<name>: its front matter the settings, its body the prompt, with lines", () => {
    const file = write(
      join(repo, ".bosun/agents/reviewer.md"),
      '---\ndescription: Reviews\nmodel: local/qwen\nread_only: true\ntools: [read, grep]\nmax_steps: 5\npermission:\n  shell:\n    "git diff *": allow\n---\n\nReview {env:HOME} carefully.\n',
    );
    const config = load();
    assert.deepEqual(agent(config, "reviewer"), {
      description: "Reviews",
      model: "local/qwen",
      read_only: true,
      tools: ["read", "grep"],
      max_steps: 5,
      permission: { shell: { "git diff *": "allow" } },
      // Markdown is taken as written: no references expanded in an agent file.
      prompt: "Review {env:HOME} carefully.",
    });
    assert.equal(config.origins.get("agent.reviewer.model")?.file, file);
    assert.equal(config.origins.get("agent.reviewer.model")?.line, 3);
    assert.equal(config.origins.get('agent.reviewer.permission.shell["git diff *"]')?.line, 9);
    assert.equal(config.origins.get("agent.reviewer.prompt")?.line, 12);
    assert.deepEqual(
      config.layers.filter((l) => l.source === file),
      [{ layer: "project", source: file, status: "read" }],
    );
    const chosen = decideAgent("reviewer", config);
    assert.deepEqual(
      { tools: chosen.agent.tools, maxSteps: chosen.agent.maxSteps, description: chosen.agent.description },
      { tools: ["read", "grep"], maxSteps: 5, description: "Reviews" },
    );
    assert.equal(chosen.agent.readOnly?.line, 4);
  });

  it("bosun.json of the same scope overrides a file's key; a project file overrides a global one key by key", () => {
    write(join(home, "agents/reviewer.md"), "---\ndescription: global\nread_only: true\n---\nGlobal prompt.\n");
    write(join(repo, ".claude/agents/reviewer.md"), "---\ndescription: project\n---\nProject prompt.\n");
    write(join(repo, "bosun.json"), JSON.stringify({ agent: { reviewer: { model: "x/y", description: "json" } } }));
    const config = load();
    assert.deepEqual(agent(config, "reviewer"), {
      description: "json",
      read_only: true,
      prompt: "Project prompt.",
      model: "x/y",
    });
    assert.equal(config.agentFiles.used.length, 2);
    assert.deepEqual(config.agentFiles.shadowed, []);
  });

  it("shadowing: .bosun beats .opencode/agents beats .opencode/agent beats .claude in one folder; deeper beats shallower", () => {
    const sub = join(repo, "pkg");
    for (const dir of [".claude/agents", ".opencode/agent", ".opencode/agents", ".bosun/agents"]) {
      write(join(repo, dir, "a.md"), `---\ndescription: ${dir}\n---\n`);
    }
    write(join(repo, ".claude/agents/b.md"), "---\ndescription: root claude\n---\n");
    write(join(repo, ".opencode/agent/b.md"), "---\ndescription: root opencode\n---\n");
    write(join(sub, ".claude/agents/b.md"), "---\ndescription: deep claude\n---\n");
    const config = load(sub);
    assert.equal(agent(config, "a")?.description, ".bosun/agents");
    assert.equal(agent(config, "b")?.description, "deep claude");
    const shadowed = config.agentFiles.shadowed.map((s) => [
      s.file.slice(repo.length + 1),
      s.by.slice(repo.length + 1),
    ]);
    assert.deepEqual(shadowed, [
      [".claude/agents/a.md", ".bosun/agents/a.md"],
      [".claude/agents/b.md", "pkg/.claude/agents/b.md"],
      [".opencode/agent/a.md", ".bosun/agents/a.md"],
      [".opencode/agent/b.md", "pkg/.claude/agents/b.md"],
      [".opencode/agents/a.md", ".bosun/agents/a.md"],
    ]);
    // Only the winners are layers.
    assert.equal(config.layers.filter((l) => l.source.endsWith(".md")).length, 2);
  });

  it("a Claude file's valid name: names the agent; an invalid one leaves the file's name", () => {
    write(join(repo, ".claude/agents/x.md"), "---\nname: code-reviewer\n---\nP\n");
    write(join(repo, ".claude/agents/y.md"), "---\nname: a/b\n---\nQ\n");
    const config = load();
    assert.equal(agent(config, "code-reviewer")?.prompt, "P");
    assert.equal(agent(config, "y")?.prompt, "Q");
    assert.equal(agent(config, "x"), undefined);
  });

  it("bosun's own files are strict: file:line and key for an unknown key, a bad value, a prompt key, another name", () => {
    const file = join(repo, ".bosun/agents/r.md");
    const cases: Array<[string, RegExp]> = [
      ["---\ndescription: x\ncolour: red\n---\n", /r\.md:3: unknown key "agent\.r\.colour"/],
      ["---\nmode: fast\n---\n", /r\.md:2: key "agent\.r\.mode": Invalid option/],
      ["---\nmax_steps: 0\n---\n", /r\.md:2: key "agent\.r\.max_steps"/],
      ["---\nprompt: hi\n---\n", /r\.md:2: key "prompt": an agent file's prompt is its body/],
      ["---\nname: other\n---\n", /r\.md:2: key "name": "other" is not the file's name "r"/],
      ["---\ntools: [\n---\n", /r\.md: front matter is not valid YAML/],
      ["---\n- a\n---\n", /r\.md: front matter must be key: value lines/],
      ["---\ndescription: x\n", /r\.md: front matter is not closed/],
    ];
    for (const [text, message] of cases) {
      write(file, text);
      assert.throws(
        () => load(),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    }
    rmSync(file);
    write(join(repo, ".bosun/agents/a b.md"), "x");
    assert.throws(() => load(), /"a b" is not an agent name/);
  });

  it("a foreign file that does not parse, or is disabled, is skipped and listed; bad keys are listed", () => {
    write(join(repo, ".opencode/agents/broken.md"), "---\ntools: [\n---\n");
    write(join(repo, ".opencode/agents/off.md"), "---\ndisable: true\n---\n");
    write(join(repo, ".claude/agents/c.md"), "---\ndescription: 7\ntemperature: 1\n---\nBody\n");
    const config = load();
    assert.deepEqual(
      config.agentFiles.skippedFiles.map((s) => [s.file.slice(repo.length + 1), s.reason.split(":")[0]]),
      [
        [".opencode/agents/broken.md", "front matter is not valid YAML"],
        [".opencode/agents/off.md", "disable"],
      ],
    );
    assert.deepEqual(agent(config, "c"), { prompt: "Body" });
    assert.deepEqual(config.agentFiles.used[0]?.skipped, [
      "description: not a valid description, left out",
      "temperature: not a bosun setting, ignored",
    ]);
  });

  it("a repository's agent file that leads out of the repository, or has other names, is not read", () => {
    const outside = write(join(root, "secret.md"), "---\n---\nthe user's secret\n");
    mkdirSync(join(repo, ".bosun/agents"), { recursive: true });
    symlinkSync(outside, join(repo, ".bosun/agents/leak.md"));
    const inside = write(join(repo, "notes.md"), "inside");
    linkSync(inside, join(repo, ".bosun/agents/twin.md"));
    const config = load();
    assert.equal(agent(config, "leak"), undefined);
    assert.equal(agent(config, "twin"), undefined);
    assert.deepEqual(
      config.agentFiles.skippedFiles.map((s) => s.reason.replace(/ \(to .*\)/, "")),
      ["it leads out of the repository: not read", "it has other names (hard links): not read"],
    );
  });

  it("untrusted, a file's mode auto and model-free loosening are left out as bosun.json's; its prompt changing asks again", () => {
    const file = join(repo, ".bosun/agents/runner.md");
    write(file, "---\nmode: auto\npermission:\n  shell: allow\n---\nRun.\n");
    const loosening = projectLoosening(load());
    assert.deepEqual(loosening?.items, ["agent runner mode auto", "agent runner: allow shell:*"]);
    assert.deepEqual(loosening?.files, [file]);
    assert.equal(agent(load(repo, withoutLoosening), "runner")?.mode, undefined);
    write(file, "---\nmode: auto\npermission:\n  shell: allow\n---\nRun, and delete things.\n");
    const changed = projectLoosening(load());
    assert.deepEqual(changed?.items, loosening?.items);
    assert.notEqual(changed?.fingerprint, loosening?.fingerprint);
    // A file that loosens nothing needs no trust.
    write(file, "---\nread_only: true\n---\nRun.\n");
    assert.equal(projectLoosening(load()), undefined);
    // Another tool's file passes the same check: opencode's allow is an allow; its mode is never a mode.
    write(join(repo, ".opencode/agents/docs.md"), "---\nmode: primary\npermission:\n  bash: allow\n---\nDocs.\n");
    assert.deepEqual(projectLoosening(load())?.items, ["agent docs: allow shell:*"]);
  });

  it("outside a repository, only the working directory's folders are read; the global folder takes bosun's format only", () => {
    const plain = join(root, "plain");
    write(join(plain, ".bosun/agents/here.md"), "Here.\n");
    write(join(home, "agents/mine.md"), "---\ndescription: mine\n---\nMine.\n");
    write(join(home, ".claude/agents/claude.md"), "Never read.\n");
    const config = load(plain);
    assert.equal(agent(config, "here")?.prompt, "Here.");
    assert.equal(agent(config, "mine")?.description, "mine");
    assert.equal(agent(config, "claude"), undefined);
    // Run from the home folder itself, ~/.claude/agents is Claude Code's user folder: not read.
    write(join(home, ".bosun/agents/homely.md"), "Homely.\n");
    const atHome = load(home);
    assert.equal(agent(atHome, "claude"), undefined);
    assert.equal(agent(atHome, "homely")?.prompt, "Homely.");
    assert.deepEqual(
      config.agentFiles.used.map((u) => [u.name, u.scope, u.format]),
      [
        ["mine", "global", "bosun"],
        ["here", "project", "bosun"],
      ],
    );
  });
});
