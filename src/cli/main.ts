#!/usr/bin/env node
import { ownVersion } from "../util/own-files.js";

/**
 * The `bosun` command. Only commander and this file load at start-up; each command's code is
 * imported when that command runs, so `bosun --version` stays close to bare `node`.
 */
const packageJson = { version: ownVersion() };

// `bosun --version` is answered before the argument parser is even loaded.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`${packageJson.version}\n`);
  process.exit(0);
}

const { Command, CommanderError, Option } = await import("commander");

const program = new Command("bosun")
  .description("A coding agent where every decision has a named holder and is recorded.")
  .version(packageJson.version, "-v, --version")
  .showHelpAfterError()
  // Options belong to the command they follow: `sessions show x --json` is show's --json.
  .enablePositionalOptions()
  .exitOverride()
  .configureOutput({ outputError: (text, write) => write(`bosun: ${text.replace(/^error: /, "")}`) });

/** `bosun run`'s flags; `bosun` itself takes them too, for the run or the interactive session it starts. */
function runFlags(command: InstanceType<typeof Command>): InstanceType<typeof Command> {
  return (
    command
      .option("-m, --model <id>", "model, as provider/model")
      .option("--agent <name>", "agent to run (default: build)")
      .option("-c, --continue", "continue the latest session of this repository")
      .option("-s, --session <session>", "resume a session (id, id prefix or title)")
      .option("--fork", "run in a copy of the chosen session")
      .option("--auto", "approve every call that would ask, once each (nobody sees them)")
      .option("--mode <mode>", "permission mode: approve (default), smart, auto or chat")
      .option("--allow <rule>", "allow action:pattern for this run, e.g. 'shell:npm test' (repeatable)", collect)
      .option("--ask <rule>", "ask for action:pattern in this run (repeatable)", collect)
      .option("--deny <rule>", "deny action:pattern in this run (repeatable)", collect)
      .option("--trust-project", "apply what this repository's bosun.json would loosen (allow rules, auto/smart mode)")
      .option("--max-steps <n>", "stop after this many model steps")
      .option(
        "--until <command>",
        "keep each turn going until this shell command exits 0, within the goal.* budgets (repeatable: all must pass)",
        collect,
      )
      .option("--format <format>", "text (the default) or json (one event per line)")
      .option("--no-decisions", "with --format json: leave decision events out (the ledger still has them)")
      // Repeatable rather than variadic, so `-f a.txt do this` does not take the message for a file.
      .option("-f, --file <path>", "attach a file to the message (repeatable)", collect)
      .option("-t, --title <title>", "title of a new session")
  );
}

runFlags(
  program
    .command("run")
    .description("run the agent on a task until it is done (message from arguments, stdin, or both)")
    .argument("[message...]", "what to do"),
)
  .option(
    "--recipe <name|file>",
    "run a recipe (.bosun/recipes/, the config dir's recipes/, or a file): its prompt, settings, checks",
  )
  .option("--param <name=value>", "a recipe parameter (repeatable)", collect)
  .action(async (words, options) => (await import("./commands/run.js")).run(words, options));

runFlags(
  program
    .command("init")
    .description(
      "run the agent to write or update AGENTS.md (commands, layout, conventions); its edits need approval as usual",
    ),
).action(async (options) => {
  const { initPrompt } = await import("../input/init-prompt.js");
  return (await import("./commands/run.js")).run([initPrompt(process.cwd())], options);
});

program
  .command("review")
  .description(
    "run the configured checks, then a read-only reviewer over the diff; exit 1 on a failed check or a finding at --fail-on",
  )
  .option("--base <ref>", "compare the work tree (or the index, with --staged) with this commit (default HEAD)")
  .option("--staged", "review the staged changes only")
  .option("--fail-on <severity>", "info, low, medium, high (default) or critical")
  .option("--format <format>", "text (the default) or json")
  .option("-m, --model <id>", "model, as provider/model")
  .action(async (options) => (await import("./commands/review.js")).review(options));

const config = program
  .command("config")
  .enablePositionalOptions()
  .description("print the resolved config (secrets shown as their {env:...} references)")
  .option("--origin", "show the layer, file and line that set each key")
  .option("--json", "print JSON")
  .addOption(new Option("-m, --model <id>", "model, as the flag layer (to preview a run's config)"))
  .action(async (options) => (await import("./commands/config.js")).showConfig(options));
config
  .command("get <key>")
  .description("print one resolved value (e.g. retry.max_attempts)")
  .option("-m, --model <id>", "model, as the flag layer")
  // `config -m x get model` and `config get model -m x` both work; the nearer flag wins.
  .action(async (key, options, command) =>
    (await import("./commands/config.js")).getConfig(key, { ...command.parent?.opts(), ...options }),
  );

// Listing, show and delete load only the store (commands/sessions.js); export and import load the
// file format (session-transfer.js), new and fork the config loader (session-open.js).
const sessions = program
  .command("sessions")
  .enablePositionalOptions()
  .description(
    "list sessions, newest first (this directory unless --all); a delegate (a session a task call started) " +
      "under its parent with its agent, task and status, the latest 5 of each parent unless --children",
  )
  .option("--all", "sessions of every directory")
  .option("--children", "every delegate under its parent, not only the latest 5")
  .option("--json", "print JSON (every session, flat, with parent, delegate and status)")
  .action(async (options) => (await import("./commands/sessions.js")).listSessions(options));
sessions
  .command("show <session>")
  .description("show one session (id, unique id prefix, or exact title)")
  .option("--json", "print JSON")
  .action(async (ref, options) => (await import("./commands/sessions.js")).showSession(ref, options));
sessions
  .command("delete <session>")
  .description("delete a session and its events (a prefix or title needs --yes)")
  .option("-y, --yes", "delete even when the session was named by an id prefix or title")
  .action(async (ref, options) => (await import("./commands/sessions.js")).deleteSession(ref, options));
sessions
  .command("export <session>")
  .description("print a session with every event as JSON")
  .option("-o, --output <file>", "write to a file instead of stdout (whole or not at all)")
  .action(async (ref, options) => (await import("./commands/session-transfer.js")).exportSessionCommand(ref, options));
sessions
  .command("import <file>")
  .description("import an exported session ('-' reads stdin)")
  .action(async (file) => (await import("./commands/session-transfer.js")).importSessionCommand(file));
sessions
  .command("new")
  .description("start an empty session in this directory")
  .option("-t, --title <title>", "title")
  .option("--json", "print JSON")
  .action(async (options) => (await import("./commands/session-open.js")).newSession(options));
sessions
  .command("fork <session>")
  .description("copy a session into a new one, leaving the original untouched")
  .option("-t, --title <title>", "title of the copy")
  .option("--json", "print JSON")
  .action(async (ref, options) => (await import("./commands/session-open.js")).forkSessionCommand(ref, options));

const permissions = program
  .command("permissions")
  .enablePositionalOptions()
  .description('the person\'s saved "always" approvals')
  .action(() => permissions.help());
permissions
  .command("list")
  .description("saved approvals of this project (--all: of every project)")
  .option("--all", "every project's")
  .option("--json", "print JSON")
  .action(async (options) => (await import("./commands/permissions.js")).listPermissions(options));
permissions
  .command("revoke <ids...>")
  .description("delete saved approvals by id (see list), or 'all' for this project's")
  .action(async (ids) => (await import("./commands/permissions.js")).revokePermissions(ids));

program
  .command("compact <session>")
  .description("summarise a session's older history so it fits the context window (the full history is kept)")
  .option("--json", "print JSON")
  .action(async (ref, options) => (await import("./commands/compact.js")).compact(ref, options));

program
  .command("undo <session>")
  .description(
    "undo the session's last turn: its file changes and its conversation (--to: every turn from that one on)",
  )
  .option("--to <turn>", "rewind to before this turn")
  .option("--force", "overwrite files changed since bosun's last snapshot")
  .option("--json", "print JSON")
  .action(async (ref, options) => (await import("./commands/undo.js")).undo(ref, options));

program
  .command("diff <session>")
  .description(
    "a turn's file changes, as a unified diff of its snapshots (default: the latest turn that changed files)",
  )
  .option("--turn <n>", "the turn to show")
  .action(async (ref, options) => (await import("./commands/diff.js")).diff(ref, options));

program
  .command("models")
  .description("providers, models, limits, and whether credentials are present (never the keys)")
  .option("--json", "print JSON")
  .option("-m, --model <id>", "model, as the flag layer (to preview the selection)")
  .action(async (options) => (await import("./commands/models.js")).listModels(options));

const agents = program
  .command("agents")
  .enablePositionalOptions()
  .description(
    "every agent (built-in, config, agent files): description, source, read-only, model, tools; shadowed files",
  )
  .option("--format <format>", "text (the default) or json")
  .option("--json", "print JSON")
  .action(async (options) => (await import("./commands/agents.js")).listAgents(options));
agents
  .command("list")
  .description("the same as bosun agents")
  .option("--format <format>", "text (the default) or json")
  .option("--json", "print JSON")
  .action(async (options) => (await import("./commands/agents.js")).listAgents(options));

const mcp = program
  .command("mcp")
  .enablePositionalOptions()
  .description("the configured MCP servers: list, inspect, add, remove and test them; sign in with OAuth")
  .action(() => mcp.help());
mcp
  .command("login <name>")
  .description("sign in to url server <name> with OAuth (opens your browser; runs then use the stored tokens)")
  .action(async (name) => (await import("./commands/mcp-auth.js")).mcpLogin(name));
mcp
  .command("logout <name>")
  .description("delete the OAuth credentials stored for server <name>")
  .action(async (name) => (await import("./commands/mcp-auth.js")).mcpLogout(name));
mcp
  .command("list")
  .description(
    "every configured server (all layers, .mcp.json too): origin, transport, state; each that may start is checked",
  )
  .option("--no-check", "do not connect: only what config says and whether it would start here")
  .option("--timeout <ms>", "how long each server may take to start and list its tools (default 15000)")
  .option("--json", "print JSON")
  .action(async (options) => (await import("./commands/mcp.js")).listServers(options));
mcp
  .command("get <name>")
  .description(
    "one server: its config (secrets as their {env:...} references), origin, and when it may start its tools",
  )
  .option("--timeout <ms>", "how long it may take to start and list its tools (default 15000)")
  .option("--json", "print JSON")
  .action(async (name, options) => (await import("./commands/mcp.js")).getServer(name, options));
mcp
  .command("add <name> [command...]")
  .description("add a server to your config (or the repository's): add <name> -- <command> [args...], or --url <url>")
  .option("--scope <scope>", "user (your own config, the default) or project (the repository's bosun.json)")
  .option("--url <url>", "a remote server's address (Streamable HTTP, then SSE) instead of a command")
  .option("--transport <kind>", "stdio, http or sse (default: stdio for a command, http then sse for a url)")
  .option(
    "-e, --env <K=V>",
    "an environment variable of a stdio server (repeatable; a value may be {env:NAME})",
    collect,
  )
  .option("-H, --header <K:V>", "an HTTP header of a url server (repeatable; a value may be {env:NAME})", collect)
  .option("--required", "a run stops when this server fails to start")
  .option("--disabled", "add it turned off (enabled: false)")
  .option("--force", "replace a server of that name in the same file")
  .action(async (name, words, options) => (await import("./commands/mcp-edit.js")).addServer(name, words, options));
mcp
  .command("remove <name>")
  .description("remove a server from the file that defines it (your config or the repository's bosun.json)")
  .option("--scope <scope>", "user or project, when both define it")
  .action(async (name, options) => (await import("./commands/mcp-edit.js")).removeServer(name, options));
mcp
  .command("test <name>")
  .description("connect to one server (even a disabled one) and show each step; exit 1 when it fails")
  .option("--trust-project", "start the repository's server for this test (sealed, as a run would)")
  .option("--timeout <ms>", "how long it may take to start and list its tools (default 15000)")
  .action(async (name, options) => (await import("./commands/mcp.js")).testServer(name, options));

const recipe = program
  .command("recipe")
  .enablePositionalOptions()
  .description("recipes: shareable task files with parameters, settings, checks and a response schema")
  .action(() => recipe.help());
recipe
  .command("list")
  .description(
    "every recipe (.bosun/recipes/, the config dir's recipes/), where each comes from; shadowed and left-out files",
  )
  .option("--json", "print JSON")
  .action(async (options) => (await import("./commands/recipe.js")).listRecipes(options));
recipe
  .command("show <recipe>")
  .description("one recipe (a name or a file): its parameters, settings, checks and prompt")
  .option("--json", "print JSON")
  .action(async (ref, options) => (await import("./commands/recipe.js")).showRecipe(ref, options));
recipe
  .command("validate [recipe]")
  .description("check every recipe (or the one named); problems as file:line: key: message, exit 1 on any")
  .action(async (ref) => (await import("./commands/recipe.js")).validateRecipes(ref));

program
  .command("seats [seat]")
  .description("the seat catalog: every decision bosun makes and who may hold it (one seat in full when named)")
  .option("--long", "every detail: question, default, config keys, why a seat may fail open")
  .option("--json", "print JSON")
  .action(async (id, options) => (await import("./commands/seats.js")).showSeats(id, options));

program
  .command("why [session]")
  .description("the session's decisions by turn and step, with who decided and why (default: this repository's latest)")
  .option("--last", "the latest session of this repository (the default when no session is named)")
  .option("--seat <glob>", "only seats matching, e.g. 'session.*'")
  .option("--all", "every set-up decision, not one summary line per run")
  .option("--tree", "then each delegate's decisions under it, recursively, in the order the task calls started them")
  .option("--json", "print JSON (with --tree: nested, each session with its children)")
  .action(async (ref, options) => (await import("./commands/why.js")).why(ref, options));

program
  .command("serve")
  .description("the HTTP API on this machine (every request needs the token it prints on first start)")
  .option("--port <n>", "port (default 4747; 0: any free port)")
  .option("--host <host>", "address to bind (default 127.0.0.1)")
  .option("--expose", "allow a --host beyond this machine (every request still needs the token)")
  .option("--mode <mode>", "permission mode of the sessions it creates that name none (approve, smart, auto, chat)")
  .action(async (options) => (await import("./commands/serve.js")).serve(options));

program
  .command("attach <url>")
  .description("the interactive session, driving a session a bosun server holds (a new one here unless --session)")
  .option("--session <id>", "a session the server has")
  .option("--token <token>", "the server's token (default: BOSUN_SERVER_TOKEN, else this machine's server's)")
  .action(async (url, options) => (await import("./commands/attach.js")).attach(url, options));

program
  .command("acp")
  .description("an ACP agent on stdin/stdout for editors (Zed's agent_servers): asks go to the editor")
  .option("--mode <mode>", "permission mode of the sessions it creates (approve, smart, auto, chat)")
  .option("--fs-timeout <ms>", "how long to wait for the editor to give or take a file's text (default 30000)")
  .action(async (options) => (await import("./commands/acp.js")).acp(options));

program
  .command("doctor")
  .description(
    "check the session database, the data folder, the sandbox, ripgrep and each provider; exit 1 on a problem",
  )
  .option("--json", "print JSON")
  .action(async (options) => (await import("./commands/doctor.js")).doctor(options));

program
  .command("demo")
  .description("watch bosun fix a bug in a throwaway project, with a scripted model (no API key needed)")
  .option("--keep", "keep the temporary project and BOSUN_HOME, and print where they are")
  .action(async (options) => (await import("./commands/demo.js")).demo(options));

program
  .command("dev")
  .description("tools for developing and testing bosun")
  .command("model-server")
  .description("run the scripted model server (OpenAI and Anthropic wire protocols) on 127.0.0.1")
  .requiredOption("--script <file>", "JSON script of rules and replies")
  .option("--port <n>", "port (default: any free port)")
  .action(async (options) => (await import("./commands/dev.js")).modelServerCommand(options));

/** A repeatable option's values, in the order given. */
function collect(value: string, values: string[] = []): string[] {
  return [...values, value];
}

// No command: `bosun [message]` is the interactive session at a terminal (the message its first),
// `bosun run` elsewhere or with -p; `bosun help [command]` is the help.
runFlags(program)
  .argument("[message...]", "a first message (the interactive session), or the task (-p, or no terminal)")
  .option("-p, --print", "run the task as bosun run does, without the interactive session")
  .option("-r, --resume [session]", "resume a session (without one: pick it in the interactive session)")
  .helpCommand(true)
  .action(async (words: string[], options) =>
    (await import("./commands/top-level.js")).topLevel(
      words,
      options,
      program.commands.map((c) => c.name()),
    ),
  );

try {
  // `bosun help fly`: commander would print the whole help; say what is not there instead, in
  // one line (program.error would add the help after it: showHelpAfterError).
  const asked = args[0] === "help" ? args[1] : undefined;
  const names = program.commands.map((c) => c.name());
  if (asked !== undefined && !names.includes(asked)) {
    const near = (await import("./commands/top-level.js")).nearCommand(asked, names);
    process.stderr.write(
      `bosun: unknown command '${asked}' (${near ? `did you mean ${near}? ` : ""}bosun help lists them)\n`,
    );
    process.exitCode = 2;
  } else await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = await exitCodeFor(error);
}

async function exitCodeFor(thrown: unknown): Promise<number> {
  if (thrown instanceof CommanderError) {
    // Help and version are successes; every other commander error is a usage error.
    return thrown.code === "commander.helpDisplayed" || thrown.code === "commander.version" || thrown.exitCode === 0
      ? 0
      : 2;
  }
  const { BosunError } = await import("../errors.js");
  // A database failure that escaped its command (a full disk mid-run) is explained, never a stack.
  const { explainFailure } = await import("./failure.js");
  const error = explainFailure(thrown);
  if (error instanceof BosunError) {
    // A message may quote what a repository wrote (a recipe's title, a file's name): never raw to the terminal.
    const { printableText } = await import("../util/printable.js");
    process.stderr.write(`bosun: ${printableText(error.message)}\n`);
    return error.exitCode;
  }
  const { printableText } = await import("../util/printable.js");
  process.stderr.write(
    `bosun: internal error: ${printableText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
  );
  return 1;
}
