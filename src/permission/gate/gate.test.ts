import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expectDecision } from "../../../test/support/ledger.js";
import { decideAgent } from "../../agents/select.js";
import { loadConfig } from "../../config/load.js";
import type { Decision, RecordedDecision } from "../../contracts/decisions.js";
import type { ModeName } from "../../contracts/modes.js";
import { builtinTools } from "../../tools/registry.js";
import { buildAuthority } from "../rules/layers.js";
import { loadPolicy } from "../rules/policy.js";
import type { Rule } from "../rules/rules.js";
import type { ApprovalPrompt, ApprovalRequest, PersonReply } from "./approval.js";
import { afterCall, type GateDeps, gate } from "./gate.js";
import { type Hook, hooksFromConfig } from "./hooks.js";

/** A person who answers from a script, and remembers what they were shown. */
function scriptedPerson(...replies: PersonReply[]): ApprovalPrompt & { shown: ApprovalRequest[] } {
  const shown: ApprovalRequest[] = [];
  return {
    shown,
    async ask(request) {
      shown.push(request);
      const reply = replies.shift();
      if (!reply) throw new Error("asked more often than scripted");
      return reply;
    },
  };
}

describe("gate: every seat of a call, in order", () => {
  let root: string;
  let ws: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-gate-")));
    ws = join(root, "ws");
    mkdirSync(join(ws, ".git"), { recursive: true });
    writeFileSync(join(ws, "a.txt"), "old\n");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  function setup(
    options: {
      content?: unknown;
      prompt?: ApprovalPrompt;
      auto?: boolean;
      mode?: ModeName;
      policy?: string;
      agent?: string;
    } = {},
  ) {
    writeFileSync(join(ws, "bosun.json"), JSON.stringify(options.content ?? {}));
    const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    const saved: Rule[] = [];
    const authority = buildAuthority({
      config,
      agent: decideAgent(options.agent, config).agent,
      mode: { name: options.mode ?? "approve", holder: "code" },
      saved,
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
    });
    const decisions: RecordedDecision[] = [];
    const savedRules: string[] = [];
    const deps: GateDeps = {
      authority,
      policy: options.policy ? loadPolicy({ BOSUN_POLICY: options.policy }, ws) : { rules: [], files: [] },
      hooks: hooksFromConfig(config) as Hook[],
      ...(options.prompt ? { prompt: options.prompt } : {}),
      auto: options.auto ?? false,
      sandbox: "on",
      visible: [ws],
      saveAlways(rules) {
        savedRules.push(...rules.map((r) => `${r.action}:${r.pattern}`));
        (authority.rules as Rule[][]).at(-1)?.push(
          ...rules.map((r) => ({
            ...r,
            effect: "allow" as const,
            source: { layer: "saved" as const, key: `saved ${r.pattern}` },
          })),
        );
      },
      record: (d: Decision) => decisions.push({ ...d, seq: decisions.length + 1, at: "" }),
      sessionId: "S",
      signal: new AbortController().signal,
    };
    return { deps, decisions, savedRules };
  }
  const tool = (name: string) => builtinTools().find((t) => t.name === name) as ReturnType<typeof builtinTools>[number];
  const call = (name: string, input: Record<string, unknown>, id = "c1") => ({ id, tool: tool(name), input });

  it("--auto does not answer for a path known only when it runs that a deny no mask keeps might cover", async () => {
    const content = { permission: { read: { "*": "allow", "~/.ssh/**": "deny" }, shell: { "cat *": "allow" } } };
    const { deps, decisions } = setup({ content, auto: true });
    const result = await gate(call("shell", { command: 'cat "$F"' }), 1, deps);
    assert.equal(result.run, false);
    const approval = expectDecision(decisions, "call.approval", "code", "deny");
    assert.match(
      approval.reasons[0]?.detail ?? "",
      /"~\/\.ssh\/\*\*" → deny might cover it; only a person who sees this call/,
    );
    // A person who sees it may.
    const person = scriptedPerson({ kind: "once" });
    const asked = setup({ content, auto: true, prompt: person });
    assert.equal((await gate(call("shell", { command: 'cat "$F"' }), 1, asked.deps)).run, true);
    assert.equal(person.shown.length, 1);
  });

  it("an allowed call runs with nothing asked; its requests are on record", async () => {
    const { deps, decisions } = setup({ prompt: scriptedPerson() });
    const result = await gate(call("read", { path: "a.txt" }), 1, deps);
    assert.equal(result.run, true);
    const permission = expectDecision(decisions, "call.permission", "code", "allow");
    assert.equal(permission.subject?.call, "c1");
    assert.equal(permission.reasons.at(-1)?.detail, `read:${ws}/a.txt`);
    assert.equal(
      decisions.some((d) => d.seat === "call.approval"),
      false,
    );
  });

  it("asks the person, showing the requests and a diff; allow once runs it (person)", async () => {
    const person = scriptedPerson({ kind: "once" });
    const { deps, decisions } = setup({ prompt: person });
    const result = await gate(call("write", { path: "a.txt", content: "new\n" }), 1, deps);
    assert.equal(result.run, true);
    expectDecision(decisions, "call.approval", "person", "allow-once");
    const shown = person.shown[0];
    assert.deepEqual(
      shown?.outcomes.map((o) => `${o.effect} ${o.request.action}`),
      ["ask edit"],
    );
    assert.match(shown?.preview ?? "", /-old\n\+new/);
    assert.deepEqual(
      shown?.always.options.map((o) => o.rules.map((r) => r.pattern)),
      [[`${ws}/a.txt`], [`${ws}/**`]],
    );
  });

  it("always saves the narrow rules shown, and the next call like it is allowed by the person's rule", async () => {
    const person = scriptedPerson();
    const { deps, decisions, savedRules } = setup({ prompt: person });
    person.ask = async (request) => {
      person.shown.push(request);
      return { kind: "always", option: request.always.options[0] as NonNullable<(typeof request.always.options)[0]> };
    };
    assert.equal((await gate(call("shell", { command: "git status && touch x" }), 1, deps)).run, true);
    assert.deepEqual(savedRules, ["shell:touch *"]);
    expectDecision(decisions, "call.approval", "person", "allow-always");
    person.ask = async () => {
      throw new Error("must not ask again");
    };
    assert.equal((await gate(call("shell", { command: "touch y" }, "c2"), 2, deps)).run, true);
    expectDecision(decisions, "call.permission", "person", "allow");
  });

  it("deny with a message sends the message to the model; leaving the prompt stops the turn", async () => {
    const { deps, decisions } = setup({
      prompt: scriptedPerson({ kind: "deny", message: "use make instead" }, { kind: "cancel" }),
    });
    const denied = await gate(call("shell", { command: "touch x" }), 1, deps);
    assert.deepEqual(denied.run ? undefined : denied.output, "Denied by the user, who says: use make instead");
    expectDecision(decisions, "call.approval", "person", "deny-with-message");
    const left = await gate(call("shell", { command: "touch z" }, "c2"), 1, deps);
    assert.equal(left.run === false && left.stopTurn, true);
  });

  it("with nobody to ask, an ask is denied (code) and counted; --auto allows it once (code)", async () => {
    const nobody = setup();
    const result = await gate(call("shell", { command: "touch x" }), 1, nobody.deps);
    assert.equal(result.run === false && result.unapproved, true);
    expectDecision(nobody.decisions, "call.approval", "code", "deny");
    const auto = setup({ auto: true, prompt: scriptedPerson() });
    assert.equal((await gate(call("shell", { command: "touch x" }), 1, auto.deps)).run, true);
    expectDecision(auto.decisions, "call.approval", "code", "allow-once");
  });

  it("a pre_tool hook's deny stops the call before anyone is asked; its ask makes an allowed call ask", async () => {
    const person = scriptedPerson({ kind: "once" });
    const { deps, decisions } = setup({
      prompt: person,
      content: {
        hooks: {
          pre_tool: [
            { command: 'echo \'{"decision":"deny","reason":"frozen"}\'', tools: ["shell"] },
            { command: 'echo \'{"decision":"ask"}\'', tools: ["read"] },
          ],
        },
      },
    });
    const denied = await gate(call("shell", { command: "touch x" }), 1, deps);
    assert.equal(denied.run ? "" : denied.output, "Denied by a hook: frozen. Do not retry this call unchanged.");
    expectDecision(decisions, "call.hook", "hook", "deny");
    assert.equal(person.shown.length, 0);
    assert.equal((await gate(call("read", { path: "a.txt" }, "c2"), 1, deps)).run, true);
    expectDecision(decisions, "call.hook", "hook", "ask");
    assert.equal(person.shown.length, 1, "the hook's ask went to the person");
  });

  it("the policy denies after everything else, even what the rules allow, and nobody is asked", async () => {
    const policy = join(root, "policy.json");
    writeFileSync(
      policy,
      JSON.stringify({ permission: { read: { "**/a.txt": "deny" }, shell: { "touch *": "deny" } } }),
    );
    const person = scriptedPerson({ kind: "once" });
    const { deps, decisions } = setup({
      policy,
      prompt: person,
      content: { permission: { shell: "allow" } },
      mode: "auto",
    });
    const read = await gate(call("read", { path: "a.txt" }), 1, deps);
    assert.equal(read.run, false);
    expectDecision(decisions, "call.policy", "policy", "deny");
    assert.equal((await gate(call("shell", { command: "ls && touch q" }, "c2"), 1, deps)).run, false);
    assert.equal((await gate(call("shell", { command: "ls" }, "c3"), 1, deps)).run, true);
    expectDecision(decisions, "call.policy", "policy", "pass");
    assert.equal(
      (await gate(call("shell", { command: "echo 'open" }, "c4"), 1, deps)).run,
      false,
      "unanalysable under a policy",
    );
    assert.equal(person.shown.length, 0);
  });

  it("a post_tool hook's output is added to the result the model sees, recorded", async () => {
    const { deps, decisions } = setup({
      content: { hooks: { post_tool: [{ command: "echo remember to run the tests" }] } },
    });
    const c = call("read", { path: "a.txt" });
    const gated = await gate(c, 1, deps);
    assert.ok(gated.run);
    const result = await afterCall(c, 1, { output: "1\told", summary: "read" }, gated.description, deps);
    assert.equal(result.output, "1\told\n\n[hook hooks.post_tool[0]] remember to run the tests");
    expectDecision(decisions, "call.hook", "hook", "context");
  });
});
