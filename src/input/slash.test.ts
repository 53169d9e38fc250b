import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import type { CustomCommand } from "./custom-commands.js";
import {
  BUILTIN_COMMANDS,
  customsShadowedByBuiltin,
  helpText,
  inputDecision,
  type ParsedInput,
  parseInput,
} from "./slash.js";

const WS = "/w";

function custom(name: string, extra: Partial<CustomCommand> = {}): CustomCommand {
  return {
    name,
    template: `Template of ${name}`,
    file: `${WS}/.bosun/commands/${name}.md`,
    scope: "project",
    ...extra,
  };
}

function ledger(decision: Decision | undefined): RecordedDecision[] {
  assert.ok(decision, "a decision");
  return [{ ...decision, seq: 1, at: "" }];
}

const audit = custom("audit", { description: "Review the diff" });
const modelCustom = custom("model", { description: "my model thing" });
const customs = [audit, modelCustom];

describe("parseInput", () => {
  it("parses each built-in with its arguments", () => {
    for (const { name } of BUILTIN_COMMANDS) {
      assert.deepEqual(parseInput(`/${name}`, []), { kind: "builtin", name, args: "" });
    }
    assert.deepEqual(parseInput("/model  anthropic/claude-sonnet  ", []), {
      kind: "builtin",
      name: "model",
      args: "anthropic/claude-sonnet",
    });
  });

  it("lets a built-in win over a custom command of the same name", () => {
    assert.deepEqual(parseInput("/model x", customs), { kind: "builtin", name: "model", args: "x" });
  });

  it("parses a custom command with its arguments (multi-line kept)", () => {
    assert.deepEqual(parseInput(`/audit src/a.ts "the auth part"`, customs), {
      kind: "custom",
      command: audit,
      args: `src/a.ts "the auth part"`,
    });
    assert.deepEqual(parseInput("/audit\nline two", customs), { kind: "custom", command: audit, args: "line two" });
  });

  it("turns an unknown /word into text with a note, keeping the line as typed", () => {
    const parsed = parseInput("/unknown words here", customs);
    assert.equal(parsed.kind, "text");
    assert.equal(parsed.kind === "text" && parsed.text, "/unknown words here");
    assert.match((parsed.kind === "text" && parsed.note) || "", /\/unknown is not a command/);
    // Case matters: /Help is not /help.
    assert.equal(parseInput("/Help", []).kind, "text");
  });

  it("takes a path or a lone slash as plain text, without a note", () => {
    assert.deepEqual(parseInput("/etc/hosts is broken", customs), { kind: "text", text: "/etc/hosts is broken" });
    assert.deepEqual(parseInput("/", customs), { kind: "text", text: "/" });
    assert.deepEqual(parseInput("/help.md", customs), { kind: "text", text: "/help.md" });
  });

  it("parses !cmd as a bang with the rest trimmed; ! alone is text", () => {
    assert.deepEqual(parseInput("!ls -la", []), { kind: "bang", command: "ls -la" });
    assert.deepEqual(parseInput("  !  git status  ", []), { kind: "bang", command: "git status" });
    assert.deepEqual(parseInput("!", []), { kind: "text", text: "!" });
    assert.deepEqual(parseInput("!   ", []), { kind: "text", text: "!   " });
  });

  it("takes anything else as text", () => {
    assert.deepEqual(parseInput("fix the bug in /src", customs), { kind: "text", text: "fix the bug in /src" });
    assert.deepEqual(parseInput("  hello", customs), { kind: "text", text: "  hello" });
  });
});

describe("helpText", () => {
  it("lists built-ins with descriptions, the customs with theirs, and marks the ones a built-in shadows", () => {
    const bare = custom("explain", { template: "\nExplain the code below in plain words.\nMore." });
    const global = custom("audit", { scope: "global", file: "/g/commands/audit.md" });
    const text = helpText([...customs, bare], customsShadowedByBuiltin([...customs, bare]), [
      { command: global, by: audit },
    ]);
    for (const { name, description } of BUILTIN_COMMANDS) {
      assert.match(text, new RegExp(`^  /${name} +${description}$`, "m"));
    }
    assert.match(text, /^ {2}\/audit +Review the diff \(\.bosun\/commands\/audit\.md\)$/m);
    assert.match(text, /^ {2}\/explain +Explain the code below in plain words\. \(\.bosun\/commands\/explain\.md\)$/m);
    assert.match(text, /^ {2}\/model \(custom, \.bosun\/commands\/model\.md\) is shadowed by the built-in$/m);
    assert.match(
      text,
      /^ {2}\/audit \(custom, \/g\/commands\/audit\.md\) is shadowed by \.bosun\/commands\/audit\.md$/m,
    );
    // The shadowed custom /model is not offered among the custom commands.
    assert.doesNotMatch(text, /my model thing/);
    assert.match(text, /!<command> +run a shell command/);
    assert.match(text, /\nKeys:\n {2}Esc +stop what runs/);
    assert.match(text, /^ {2}Ctrl-O +open the calls/m);
  });

  it("computes the shadowed by default and has no custom section without customs", () => {
    assert.match(
      helpText([modelCustom]),
      /\/model \(custom, \.bosun\/commands\/model\.md\) is shadowed by the built-in/,
    );
    const plain = helpText([]);
    assert.doesNotMatch(plain, /Custom commands|Shadowed|Not loaded/);
  });

  it("names the command files left out, and why", () => {
    const text = helpText([], [], [], [{ file: "/w/.bosun/commands/bad name.md", reason: "not a command name" }]);
    assert.match(text, /\nNot loaded:\n {2}\/w\/\.bosun\/commands\/bad name\.md: not a command name$/);
  });
});

describe("inputDecision", () => {
  it("a built-in is the person's, naming a custom command it shadows", () => {
    const parsed = parseInput("/model x", customs);
    const decisions = ledger(inputDecision(parsed, { customs }));
    const d = expectDecision(decisions, "input.command", "person", { kind: "builtin", name: "model" });
    assert.ok(d.reasons.some((r) => r.rule === "shadows a custom command" && r.source === modelCustom.file));
    const alone = ledger(inputDecision(parseInput("/help", customs), { customs }));
    assert.deepEqual(
      expectDecision(alone, "input.command", "person", { kind: "builtin", name: "help" }).reasons.map((r) => r.rule),
      ["built-in command"],
    );
  });

  it("a custom command is the person's, with its file, the spans run and what it shadows", () => {
    const global = custom("audit", { scope: "global", file: "/g/commands/audit.md" });
    const parsed = parseInput("/audit a", customs);
    const decisions = ledger(
      inputDecision(parsed, {
        customs,
        shadowed: [{ command: global, by: audit }],
        expansion: {
          text: "…",
          ran: [
            { command: "git diff", exitCode: 0 },
            { command: "git log", exitCode: 128 },
          ],
        },
      }),
    );
    const d = expectDecision(decisions, "input.command", "person", {
      kind: "custom",
      name: "audit",
      file: audit.file,
    });
    assert.deepEqual(
      d.reasons.map((r) => [r.rule, r.detail, r.source]),
      [
        ["custom command", "/audit (project)", audit.file],
        ["shadows a custom command", ".bosun/commands/audit.md wins over /g/commands/audit.md", global.file],
        ["ran a span of the template", "!`git diff` exited 0", audit.file],
        ["ran a span of the template", "!`git log` exited 128", audit.file],
      ],
    );
  });

  it("a bang is the person's", () => {
    const decisions = ledger(inputDecision(parseInput("!ls -la", customs)));
    expectDecision(decisions, "input.command", "person", { kind: "bang", command: "ls -la" });
  });

  it("an unknown /word turned into text is code's, and the reason says so", () => {
    const decisions = ledger(inputDecision(parseInput("/unknown words", customs)));
    const d = expectDecision(decisions, "input.command", "code", { kind: "text", command: "/unknown" });
    assert.match(d.reasons[0]?.detail ?? "", /\/unknown is not a command/);
    assert.equal(d.reasons[0]?.decisive, true);
  });

  it("a path or a lone ! is code's too; plain text has no decision", () => {
    expectDecision(ledger(inputDecision(parseInput("/etc/hosts x", []))), "input.command", "code", {
      kind: "text",
      command: "/etc/hosts",
    });
    expectDecision(ledger(inputDecision(parseInput("!", []))), "input.command", "code", { kind: "text", command: "!" });
    const plain: ParsedInput = parseInput("hello there", []);
    assert.equal(inputDecision(plain), undefined);
  });
});
