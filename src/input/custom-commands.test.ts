import assert from "node:assert/strict";
import { existsSync, linkSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder } from "../../test/support/tools.js";
import { runBang } from "./bang.js";
import {
  COMMAND_MAX_BYTES,
  commandPath,
  discoverCustomCommands,
  expandTemplate,
  parseCommand,
  type SpanRunner,
  splitArguments,
} from "./custom-commands.js";

const temp = tempFolder("commands");

function places() {
  const workspace = join(temp.path, "work");
  const globalDir = join(temp.path, "global");
  mkdirSync(workspace, { recursive: true });
  return { workspace, globalDir };
}

/** A runSpan that records what it was asked and answers from a table. */
function scripted(answers: Record<string, { output: string; exitCode: number | null }>) {
  const asked: string[] = [];
  const run: SpanRunner = async (command) => {
    asked.push(command);
    const answer = answers[command];
    if (!answer) throw new Error(`unexpected span ${command}`);
    return answer;
  };
  return { asked, run };
}

describe("discoverCustomCommands", () => {
  it("finds project and global commands; the project's wins a name and the global one is listed as shadowed", () => {
    const where = places();
    temp.put("work/.bosun/commands/review.md", "---\ndescription: Review the diff\nagent: reviewer\n---\nReview $1\n");
    temp.put("work/.bosun/commands/fix:lint.md", "Fix the lint errors.\n");
    temp.put("global/commands/review.md", "---\ndescription: global review\n---\nGlobal review\n");
    temp.put("global/commands/standup.md", "---\nmodel: anthropic/claude-haiku\n---\nWrite my standup.\n");
    const set = discoverCustomCommands(where);
    assert.deepEqual(
      set.commands.map((c) => [c.name, c.scope, c.description, c.agent, c.model, c.template]),
      [
        ["fix:lint", "project", undefined, undefined, undefined, "Fix the lint errors."],
        ["review", "project", "Review the diff", "reviewer", undefined, "Review $1"],
        ["standup", "global", undefined, undefined, "anthropic/claude-haiku", "Write my standup."],
      ],
    );
    const review = set.commands[1];
    assert.equal(review?.file, join(where.workspace, ".bosun", "commands", "review.md"));
    assert.equal(set.shadowed.length, 1);
    assert.equal(set.shadowed[0]?.command.file, join(where.globalDir, "commands", "review.md"));
    assert.equal(set.shadowed[0]?.command.scope, "global");
    assert.equal(set.shadowed[0]?.by, review);
    assert.deepEqual(set.skipped, []);
    assert.equal(commandPath(review as never), ".bosun/commands/review.md");
    assert.equal(commandPath(set.commands[2] as never), join(where.globalDir, "commands", "standup.md"));
  });

  it("is empty when neither folder exists", () => {
    assert.deepEqual(discoverCustomCommands(places()), { commands: [], shadowed: [], skipped: [] });
  });

  it("skips bad names, broken front matter and empty templates, with reasons, and keeps the rest", () => {
    const where = places();
    temp.put("work/.bosun/commands/good.md", "Good.\n");
    temp.put("work/.bosun/commands/has space.md", "x");
    temp.put("work/.bosun/commands/dot.ted.md", "x");
    temp.put("work/.bosun/commands/bad-yaml.md", "---\ndescription: [unclosed\n---\nBody\n");
    temp.put("work/.bosun/commands/unclosed.md", "---\ndescription: x\nBody\n");
    temp.put("work/.bosun/commands/list.md", "---\n- a\n- b\n---\nBody\n");
    temp.put("work/.bosun/commands/num.md", "---\ndescription: 42\n---\nBody\n");
    temp.put("work/.bosun/commands/empty.md", "---\ndescription: nothing here\n---\n\n");
    temp.put("work/.bosun/commands/huge.md", "x".repeat(COMMAND_MAX_BYTES + 1));
    temp.put("work/.bosun/commands/notes.txt", "not a command, ignored");
    mkdirSync(join(where.workspace, ".bosun", "commands", "folder.md"));
    const set = discoverCustomCommands(where);
    assert.deepEqual(
      set.commands.map((c) => c.name),
      ["good"],
    );
    const reasons = Object.fromEntries(
      set.skipped.map(({ file, reason }) => [file.slice(file.lastIndexOf("/") + 1), reason]),
    );
    assert.deepEqual(Object.keys(reasons).sort(), [
      "bad-yaml.md",
      "dot.ted.md",
      "empty.md",
      "has space.md",
      "huge.md",
      "list.md",
      "num.md",
      "unclosed.md",
    ]);
    assert.match(reasons["has space.md"] ?? "", /invalid command name "has space"/);
    assert.match(reasons["dot.ted.md"] ?? "", /invalid command name "dot.ted"/);
    assert.match(reasons["bad-yaml.md"] ?? "", /^front matter is not valid YAML/);
    assert.match(reasons["unclosed.md"] ?? "", /not closed/);
    assert.match(reasons["list.md"] ?? "", /not a YAML mapping/);
    assert.match(reasons["num.md"] ?? "", /invalid description/);
    assert.match(reasons["empty.md"] ?? "", /template .* is empty/);
    assert.match(reasons["huge.md"] ?? "", /over the limit/);
  });

  it("skips a repository's command file that is a link or has other names (it could be .env), and a commands folder out of the workspace; your own may link", () => {
    const where = places();
    const env = temp.put("work/.env", "SECRET=hunter2\n");
    temp.put("work/.bosun/commands/good.md", "Good.\n");
    symlinkSync(env, join(where.workspace, ".bosun", "commands", "review.md"));
    linkSync(env, join(where.workspace, ".bosun", "commands", "twin.md"));
    const mine = temp.put("elsewhere/mine.md", "Mine.\n");
    mkdirSync(join(where.globalDir, "commands"), { recursive: true });
    symlinkSync(mine, join(where.globalDir, "commands", "mine.md"));
    const set = discoverCustomCommands(where);
    assert.deepEqual(
      set.commands.map((c) => [c.name, c.scope, c.template]),
      [
        ["good", "project", "Good."],
        ["mine", "global", "Mine."],
      ],
    );
    assert.doesNotMatch(JSON.stringify(set), /hunter2/);
    assert.deepEqual(
      set.skipped.map(({ file, reason }) => [file.slice(file.lastIndexOf("/") + 1), reason.replace(/:.*/, "")]),
      [
        ["review.md", "a link"],
        ["twin.md", "it has other names (hard links)"],
      ],
    );

    temp.put("outside/commands/x.md", "From outside.\n");
    const other = { workspace: join(temp.path, "work2"), globalDir: join(temp.path, "global2") };
    mkdirSync(join(other.workspace, ".bosun"), { recursive: true });
    symlinkSync(join(temp.path, "outside", "commands"), join(other.workspace, ".bosun", "commands"));
    const outside = discoverCustomCommands(other);
    assert.deepEqual(outside.commands, []);
    assert.match(outside.skipped[0]?.reason ?? "", /^outside the workspace/);
  });

  it("searches a folder reached twice only once", () => {
    const where = places();
    temp.put("work/.bosun/commands/once.md", "Once.\n");
    const set = discoverCustomCommands({ workspace: where.workspace, globalDir: join(where.workspace, ".bosun") });
    assert.deepEqual(
      set.commands.map((c) => [c.name, c.scope]),
      [["once", "project"]],
    );
    assert.deepEqual(set.shadowed, []);
  });
});

describe("parseCommand", () => {
  it("reads a file without front matter as all template", () => {
    assert.deepEqual(parseCommand("Just do it.\n\nNow.\n"), {
      ok: true,
      fields: {},
      template: "Just do it.\n\nNow.",
      ignored: [],
    });
  });

  it("accepts an empty front matter and ignores unknown keys, listing them", () => {
    assert.deepEqual(parseCommand("---\n---\nBody"), { ok: true, fields: {}, template: "Body", ignored: [] });
    assert.deepEqual(parseCommand("---\nargument-hint: <file>\ndescription: d\n---\nBody"), {
      ok: true,
      fields: { description: "d" },
      template: "Body",
      ignored: [{ key: "argument-hint", reason: "not a key bosun reads in a bosun command file" }],
    });
  });
});

describe("splitArguments", () => {
  it("splits like a shell: quotes group, backslash escapes, empty quotes are an empty word", () => {
    assert.deepEqual(splitArguments(`one "two words" 'three $x' four\\ five "" six`), [
      "one",
      "two words",
      "three $x",
      "four five",
      "",
      "six",
    ]);
    assert.deepEqual(splitArguments(`a"b c"d`), ["ab cd"]);
    assert.deepEqual(splitArguments(`"unclosed rest`), ["unclosed rest"]);
    assert.deepEqual(splitArguments("   "), []);
  });
});

describe("expandTemplate", () => {
  it("runs the template's spans in order, replacing each with its output, trailing newline trimmed", async () => {
    const runner = scripted({
      "git status --short": { output: " M a.ts\n", exitCode: 0 },
      "git diff": { output: "diff --git a/a.ts\n", exitCode: 0 },
    });
    const result = await expandTemplate(
      "Status:\n!`git status --short`\nDiff:\n!`git diff`\nReview it.",
      "",
      runner.run,
    );
    assert.deepEqual(runner.asked, ["git status --short", "git diff"]);
    assert.equal(result.text, "Status:\n M a.ts\nDiff:\ndiff --git a/a.ts\nReview it.");
    assert.deepEqual(result.ran, [
      { command: "git status --short", exitCode: 0 },
      { command: "git diff", exitCode: 0 },
    ]);
  });

  it("keeps a failing span's output and notes its exit code; a runner that throws is a failure too", async () => {
    const runner: SpanRunner = async (command) => {
      if (command === "boom") throw new Error("no shell");
      return { output: "fatal: not a git repository\n", exitCode: 128 };
    };
    const result = await expandTemplate("A: !`git log` B: !`boom`", "", runner);
    assert.equal(
      result.text,
      "A: fatal: not a git repository\n(exit code 128) B: (the command could not run: no shell)\n(the command did not exit normally)",
    );
    assert.deepEqual(result.ran, [
      { command: "git log", exitCode: 128 },
      { command: "boom", exitCode: null },
    ]);
  });

  it("never runs a span that comes from the arguments: it stays literal text (real shell)", async () => {
    const dir = temp.path;
    const signal = new AbortController().signal;
    const spans: string[] = [];
    const runSpan: SpanRunner = async (command) => {
      spans.push(command);
      const result = await runBang(command, { cwd: dir, signal });
      return { output: result.output, exitCode: result.exitCode };
    };
    // The real runner does create files: the template's own span proves it.
    const result = await expandTemplate(
      "!`touch made-by-template && echo made`\nDo: $ARGUMENTS\nFirst: $1",
      "!`touch pwned` now",
      runSpan,
    );
    assert.ok(existsSync(join(dir, "made-by-template")), "the template's own span ran");
    assert.equal(existsSync(join(dir, "pwned")), false, "the argument's span must not run");
    assert.deepEqual(spans, ["touch made-by-template && echo made"]);
    assert.equal(result.text, "made\nDo: !`touch pwned` now\nFirst: !`touch");
    assert.deepEqual(result.ran, [{ command: "touch made-by-template && echo made", exitCode: 0 }]);
  });

  it("does not run an argument's span when it is appended either", async () => {
    const dir = temp.path;
    const signal = new AbortController().signal;
    const result = await expandTemplate("No placeholders here.", "!`touch pwned`", async (command) =>
      runBang(command, { cwd: dir, signal }),
    );
    assert.equal(existsSync(join(dir, "pwned")), false);
    assert.equal(result.text, "No placeholders here.\n\n!`touch pwned`");
    assert.deepEqual(result.ran, []);
  });

  it("does not expand a span's output again: $1 and !`...` in it stay as they are", async () => {
    const runner = scripted({ "cat notes": { output: "costs $1 and $ARGUMENTS; !`rm -rf x`\n", exitCode: 0 } });
    const result = await expandTemplate("Notes: !`cat notes` for $1", "alpha", runner.run);
    assert.deepEqual(runner.asked, ["cat notes"]);
    assert.equal(result.text, "Notes: costs $1 and $ARGUMENTS; !`rm -rf x` for alpha");
  });

  it("inserts an argument holding $2 or $ARGUMENTS literally", async () => {
    const result = await expandTemplate("[$1] [$2]", `'$2 $ARGUMENTS' second`, scripted({}).run);
    assert.equal(result.text, "[$2 $ARGUMENTS] [second]");
  });

  it("puts $ARGUMENTS and quoted $1..$n in place; a missing one is empty; $0 is not a placeholder", async () => {
    const result = await expandTemplate(
      "all=<$ARGUMENTS> 1=<$1> 2=<$2> 3=<$3> 4=<$4> 0=<$0>",
      `  fix "the login bug" 'in auth.ts'  `,
      scripted({}).run,
    );
    assert.equal(
      result.text,
      `all=<fix "the login bug" 'in auth.ts'> 1=<fix> 2=<the login bug> 3=<in auth.ts> 4=<> 0=<$0>`,
    );
  });

  it("takes $10 as the tenth argument, not $1 then 0", async () => {
    const args = "a b c d e f g h i j";
    const result = await expandTemplate("$10|$1", args, scripted({}).run);
    assert.equal(result.text, "j|a");
  });

  it("appends the arguments after a blank line when the template has no placeholder, and not when empty", async () => {
    assert.equal(
      (await expandTemplate("Explain this.", "  src/a.ts  ", scripted({}).run)).text,
      "Explain this.\n\nsrc/a.ts",
    );
    assert.equal((await expandTemplate("Explain this.", "   ", scripted({}).run)).text, "Explain this.");
    // With a placeholder nothing is appended, even when it is past the arguments given.
    assert.equal((await expandTemplate("Look at $2.", "one", scripted({}).run)).text, "Look at .");
  });

  it("does not put arguments into a span's command: the span runs as written", async () => {
    const runner = scripted({ "git log $1": { output: "log", exitCode: 0 } });
    const result = await expandTemplate("!`git log $1`", "; rm -rf /", runner.run);
    assert.deepEqual(runner.asked, ["git log $1"]);
    // The span's $1 is not a placeholder of the template, so the arguments are appended.
    assert.equal(result.text, "log\n\n; rm -rf /");
  });

  it("leaves an empty span as text", async () => {
    const result = await expandTemplate("a !` ` b", "", scripted({}).run);
    assert.equal(result.text, "a !` ` b");
    assert.deepEqual(result.ran, []);
  });
});
