import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decideAgent } from "../../agents/select.js";
import { loadConfig } from "../../config/load.js";
import { builtinTools } from "../../tools/registry.js";
import { alwaysOffer, formatAlwaysRule } from "../rules/always.js";
import type { SessionRuleFlags } from "../rules/layers.js";
import { buildAuthority } from "../rules/layers.js";
import { allowHint, shellQuote } from "./allow-hint.js";
import { authorize } from "./authorize.js";

describe("allowHint: the narrow --allow that lets a call nobody approved run", () => {
  let root: string;
  let ws: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-hint-")));
    ws = join(root, "ws");
    mkdirSync(join(ws, ".git"), { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const authority = (flags: SessionRuleFlags = {}, agent?: string) => {
    const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    return buildAuthority({
      config,
      agent: decideAgent(agent, config).agent,
      mode: { name: "approve", holder: "code" },
      flags,
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
    });
  };
  const tool = (name: string) => builtinTools().find((t) => t.name === name) as ReturnType<typeof builtinTools>[number];
  const judged = async (name: string, input: Record<string, unknown>, flags: SessionRuleFlags = {}) => {
    const ctx = authority(flags);
    const description = await tool(name).requests(input, { cwd: ws, workspace: ws });
    return { ctx, description, permission: authorize(description, ctx) };
  };
  /** The flags as a shell hands them to bosun: the single quotes taken off. */
  const unquoted = (hint: readonly string[]) => hint.map((flag) => flag.replace(/^--allow '(.*)'$/s, "$1"));

  it("names each asking command's prefix, as the always prompt would save it; with those flags the call is allowed", async () => {
    const { ctx, description, permission } = await judged("shell", {
      command: "npm test --silent && git push origin main",
    });
    assert.equal(permission.answer, "ask");
    const hint = allowHint(description, permission.outcomes, ctx);
    assert.deepEqual(hint, ["--allow 'shell:npm test *'", "--allow 'shell:git push *'"]);
    assert.deepEqual(unquoted(hint ?? []), alwaysOffer(permission.outcomes).options[0]?.rules.map(formatAlwaysRule));
    const again = await judged(
      "shell",
      { command: "npm test --silent && git push origin main" },
      { allow: unquoted(hint ?? []) },
    );
    assert.equal(again.permission.answer, "allow");
  });

  it("names an edit by its workspace-relative path, which as a flag allows exactly that file", async () => {
    const { ctx, description, permission } = await judged("write", { path: "src/slug.js", content: "x" });
    const hint = allowHint(description, permission.outcomes, ctx);
    assert.deepEqual(hint, ["--allow 'edit:src/slug.js'"]);
    assert.equal(
      (await judged("write", { path: "src/slug.js", content: "x" }, { allow: unquoted(hint ?? []) })).permission.answer,
      "allow",
    );
    assert.equal(
      (await judged("write", { path: "src/other.js", content: "x" }, { allow: unquoted(hint ?? []) })).permission
        .answer,
      "ask",
    );
  });

  it("suggests nothing a run's own stricter flag would override: --ask comes after --allow", async () => {
    const { ctx, description, permission } = await judged("shell", { command: "npm test" }, { ask: ["shell:npm *"] });
    assert.equal(permission.answer, "ask");
    assert.equal(allowHint(description, permission.outcomes, ctx), undefined);
  });

  it("suggests nothing for a command whose name is known only when it runs", async () => {
    const { ctx, description, permission } = await judged("shell", { command: '"$TOOL" build' });
    assert.equal(permission.answer, "ask");
    assert.equal(allowHint(description, permission.outcomes, ctx), undefined);
  });

  it("quotes for a POSIX shell, a single quote included", () => {
    assert.equal(shellQuote("shell:echo it's *"), "'shell:echo it'\\''s *'");
  });
});
