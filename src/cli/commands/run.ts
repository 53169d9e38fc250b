import { fstatSync, readFileSync } from "node:fs";
import type { Decision } from "../../contracts/decisions.js";
import { BosunError, UsageError } from "../../errors.js";
import type { RunEvent } from "../../loop/turn.js";
import { terminalPrompt } from "../../permission/gate/prompt-terminal.js";
import { openRuntime, type SessionOptions } from "../../runtime/open.js";
import { exitCodeOf } from "../../runtime/stream-event.js";
import { ownVersion } from "../../util/own-files.js";
import { readAttachments } from "../attachments.js";
import { explainFailure } from "../failure.js";
import { warn } from "../output.js";
import { terminalQuestionPrompt } from "../question-terminal.js";
import { jsonPrinter, type RunPrinter, textPrinter } from "../run-output.js";
import { untilGoal } from "../until.js";

/** `bosun run`'s flags: the session's (runtime/open.ts), with --max-steps as typed, and the run's own. */
export interface RunOptions extends Omit<SessionOptions, "maxSteps"> {
  maxSteps?: string;
  /** --until: commands that must exit 0 before the turn is done (the person's goal). */
  until?: string[];
  format?: string;
  file?: string[];
  /** False with --no-decisions: the JSON stream leaves decision events out. */
  decisions?: boolean;
  /** --recipe: a recipe's name or file (cli/recipe-run.ts). */
  recipe?: string;
  /** --param name=value, repeatable: the recipe's parameters. */
  param?: string[];
}

/**
 * `bosun run`: a usage or config error is still reported as JSON events in --format json (an
 * `error`, then a `done` of status "error"); only what the argument parser refuses is not.
 */
export async function run(words: string[], options: RunOptions): Promise<void> {
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json") throw new UsageError(`--format must be text or json, not "${format}"`);
  const printer = format === "json" ? jsonPrinter({ decisions: options.decisions !== false }) : textPrinter();
  try {
    // Text mode shows only refusals, and always: a flag that would change nothing is refused, not ignored.
    if (format === "text" && options.decisions === false) {
      throw new UsageError("--no-decisions is for --format json (text mode shows decisions only as refusals)");
    }
    await runWith(printer, words, options);
  } catch (thrown) {
    // A full disk mid-run is explained here already, so --format json reports it as an event too.
    const error = explainFailure(thrown);
    if (error instanceof BosunError) printer.failed(error);
    throw error;
  }
}

/**
 * The message: the words, then what was piped in as a block of its own (`git diff | bosun run
 * "review this"`); either alone is the message. Never read from a terminal, which would wait for
 * a person; an empty pipe adds nothing.
 */
export function messageOf(words: string, piped: string): string {
  const stdin = piped.replace(/^\s*\n|\s+$/g, "");
  if (stdin.trim() === "") return words;
  if (words === "") return stdin.trim();
  const fence = "`".repeat(Math.max(3, ...[...stdin.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)));
  return `${words}\n\n${fence}stdin\n${stdin}\n${fence}`;
}

/** How long a message's run waits for the first byte of a stdin that is a pipe or a socket. */
export const STDIN_FIRST_BYTE_MS = 2_000;

/**
 * What was piped in: never read from a terminal. Without a message, stdin is the message and is
 * read to its end. With one, a file is read whole; a pipe or a socket is how a program starts
 * bosun, its stdin often left open and never written (a Node child's socket, Python's
 * `stdin=PIPE`), so bosun waits for a first byte only so long, says so when it stops waiting,
 * and once text comes reads it to its end (`npm test | bosun run "why"` waits for the tests).
 */
async function readStdin(withMessage: boolean): Promise<string> {
  if (process.stdin.isTTY) return "";
  const stat = fstatSync(0);
  if (!withMessage || !(stat.isSocket() || stat.isFIFO())) return readFileSync(0, "utf8");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const stdin = process.stdin;
    const finish = () => {
      clearTimeout(timer);
      stdin.off("data", onData);
      stdin.off("end", finish);
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onData = (chunk: Buffer) => {
      clearTimeout(timer);
      chunks.push(chunk);
    };
    const timer = setTimeout(() => {
      if (chunks.length > 0) return;
      process.stderr.write(
        `bosun: stdin is open but sent nothing in ${STDIN_FIRST_BYTE_MS / 1000} s: running without it (close it, or give </dev/null)\n`,
      );
      stdin.off("data", onData);
      stdin.off("end", finish);
      stdin.pause();
      stdin.destroy();
      resolve("");
    }, STDIN_FIRST_BYTE_MS);
    stdin.on("data", onData);
    stdin.on("end", finish);
  });
}

async function runWith(printer: RunPrinter, words: string[], options: RunOptions): Promise<void> {
  const maxSteps = options.maxSteps === undefined ? undefined : Number(options.maxSteps);
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) {
    throw new UsageError(`--max-steps must be a positive whole number, not "${options.maxSteps}"`);
  }
  const cwd = process.cwd();
  const until = untilGoal(options.until);
  if (options.param && options.recipe === undefined)
    throw new UsageError("--param is for a recipe: give --recipe <name|file>");
  // A recipe's prompt is the message (the words, if any, after it); stdin is not read for it.
  const recipe =
    options.recipe === undefined
      ? undefined
      : await (await import("../recipe-run.js")).prepareRecipeRun({
          ref: options.recipe,
          params: options.param ?? [],
          words: words.join(" ").trim(),
          cwd,
          flags: options,
        });
  if (until && recipe?.options.goal)
    throw new UsageError("--until and a recipe with checks: the recipe's checks are its goal; give one of them");
  const goal = until ?? recipe?.options.goal;
  const text = recipe ? recipe.text : messageOf(words.join(" ").trim(), await readStdin(words.length > 0));
  if (text === "") {
    throw new UsageError('nothing to do: give a message, e.g. bosun run "fix the failing test", or pipe one in');
  }
  const files = await readAttachments(options.file ?? [], cwd);
  const controller = new AbortController();
  // A person can answer only where the message did not come through stdin and both ends are a terminal.
  const interactive =
    (words.length > 0 || recipe !== undefined) && process.stdin.isTTY === true && process.stderr.isTTY === true;
  const { maxSteps: _, format: __, file: ___, decisions: ____, until: _____, recipe: _r, param: _p, ...rest } = options;
  if (recipe?.warning) warn(recipe.warning);
  const live = await openRuntime({
    cwd,
    options: {
      ...rest,
      ...recipe?.options,
      ...(maxSteps !== undefined ? { maxSteps } : {}),
      ...(goal ? { goal } : {}),
    },
    ...(recipe?.modeChoice ? { modeChoice: recipe.modeChoice } : {}),
    firstMessage: text,
    interactive,
    ...(interactive
      ? {
          prompt: terminalPrompt({ input: process.stdin, output: process.stderr }),
          question: terminalQuestionPrompt({ input: process.stdin, output: process.stderr }),
        }
      : {}),
    onDecision: (decision) => printer.event({ type: "decision", decision }),
    onLeaseLost: () => controller.abort(new Error("another run took over this session")),
    signal: controller.signal,
  });
  printer.start({
    session: live.session.id,
    opened: live.opened,
    model: live.model.ref,
    agent: live.agent,
    mode: live.mode,
    cwd,
    tools: live.offeredTools(),
    maxSteps: live.maxSteps,
    version: ownVersion(),
  });
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts++;
    // A second Ctrl-C leaves at once; the session stays valid because every write is a transaction.
    if (interrupts > 1) process.exit(130);
    process.stderr.write(`\nbosun: ${signal}: cancelling (again to quit at once)\n`);
    controller.abort(new Error(`cancelled by ${signal}`));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  try {
    if (recipe) live.record(recipe.decision);
    const io = { emit: (event: RunEvent) => printer.event(event), signal: controller.signal };
    const first = await live.turn({ text, ...(files.length > 0 ? { files } : {}) }, io);
    const outcome = recipe?.response
      ? await (await import("../recipe-run.js")).untilResponse(first, recipe, {
          turn: (message: string) => live.turn({ text: message }, io),
          record: (decision: Decision) => live.record(decision),
          emit: io.emit,
        })
      : first;
    await live.close();
    const exitCode = exitCodeOf(outcome);
    const usage = live.usage();
    printer.done(outcome, { session: live.session.id, exitCode, ...(usage ? { usage } : {}) });
    process.exitCode = exitCode;
  } finally {
    // After a failed turn, closing's own failure (a full disk again) must not replace the turn's error.
    await live.close().catch(() => undefined);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
  }
}
