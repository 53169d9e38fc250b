import type { CustomCommand, Expansion } from "../input/custom-commands.js";
import { initPrompt } from "../input/init-prompt.js";
import { parseMcpCommand, refuseWhileBusy } from "../input/mcp-command.js";
import { type ParsedInput, parseInput } from "../input/slash.js";
import type { TurnOutcome } from "../loop/turn.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import { revertText } from "./revert-text.js";
import type { InteractiveRunner } from "./runner.js";
import type { usePending } from "./use-pending.js";
import type { TranscriptState } from "./use-transcript.js";
import type { WorkState } from "./use-work.js";

export interface SubmitDeps {
  runner: InteractiveRunner;
  /**
   * The commands as they stand when a line is sent: an MCP server's prompts may have changed
   * since the last draw (a line typed in one go is sent before the next).
   */
  customs: () => CustomCommand[];
  /** Where each typed line is kept (the input's history). */
  keep: (line: string) => void;
  pending: ReturnType<typeof usePending>;
  work: WorkState;
  transcript: TranscriptState;
  prompt: ApprovalPrompt;
  expand: (command: CustomCommand, args: string, prompt: ApprovalPrompt, signal: AbortSignal) => Promise<Expansion>;
  builtin: (name: string, args: string) => Promise<void>;
}

/**
 * What a line does when sent: while something runs it waits (or steers the turn); else a `!cmd`,
 * a custom command, text for a turn, or a built-in command runs — and what waited goes next.
 * Made anew each render, as the app's handlers are.
 */
export function submitter(deps: SubmitDeps) {
  const { runner, pending, transcript } = deps;
  const { add } = transcript;
  const { busyRef, inTurn } = deps.work;

  /** Runs one piece of work; then what waited goes next, unless Esc stopped it. */
  const work = async (job: (signal: AbortSignal) => Promise<void>) => {
    if (await deps.work.run(job)) {
      if (pending.count > 0)
        add({
          kind: "notice",
          text: `${pending.count} waiting: Enter on an empty line sends the next, Ctrl-X drops one`,
        });
      return;
    }
    await sendNext();
  };
  const sendNext = async (byPerson = false) => {
    const next = pending.takeNext();
    if (!next) return;
    void runner.noteSteer?.(next, "queue", byPerson ? "enter" : undefined);
    await submit(next.text, false);
  };

  /** The steering messages, for the loop at a step boundary: shown as the person's, gone from the queue. */
  const takeSteering = () => {
    const steer = pending.takeSteering();
    for (const m of steer) {
      add({ kind: "user", text: m.text });
      void runner.noteSteer?.(m, "steer");
    }
    return steer.map((m) => m.text);
  };
  /** A turn for `text`; a recipe's turn runs through its own `run` (its settings and checks). */
  const runTurn = (
    text: string,
    signal: AbortSignal,
    from?: { command: CustomCommand; typed: string },
    run?: RecipeRun,
  ) => {
    add({ kind: "user", text });
    inTurn.current = true;
    const io = { emit: transcript.onEvent, prompt: deps.prompt, signal, steering: takeSteering };
    return (run ? run(io) : runner.turn(text, io, from)).then((outcome) => {
      if (outcome.status === "cancelled") add({ kind: "notice", text: "interrupted; the session stays as it was" });
      else if (outcome.status !== "done" && outcome.message) add({ kind: "notice", text: outcome.message });
    });
  };

  const submit = async (line: string, typed = true) => {
    if (typed) deps.keep(line);
    const parsed = parseInput(line, deps.customs());
    if (busyRef.current) {
      if (answeredDuringTurn(deps, parsed)) return;
      // Typed while something runs: text steers a turn at its next step (Tab: waits for the end
      // instead); a command, or anything typed while no turn runs, waits for the end.
      const command = parsed.kind !== "text" || parsed.note !== undefined;
      pending.add({
        text: line,
        how: inTurn.current && !command ? "steer" : "queue",
        chosen: false,
        kind: command ? "command" : "text",
      });
      return;
    }
    // What the line was goes on record (a `!cmd` with its exit code, once it has run).
    const note = (expansion?: Expansion) => runner.noteInput?.(parsed, expansion).catch(() => {});
    if (parsed.kind === "builtin" && parsed.name === "exit") {
      // /exit ends everything at once, without waiting for a session still opening.
      void note();
      return deps.builtin(parsed.name, parsed.args);
    }
    // Claimed before anything is awaited: a line typed meanwhile waits for this one.
    busyRef.current = true;
    switch (parsed.kind) {
      case "bang":
        return work(async (signal) => {
          const result = await runner.bang(parsed.command, signal);
          add({ kind: "shell", command: parsed.command, output: result.output, exitCode: result.exitCode });
        });
      case "custom":
        return work(async (signal) => {
          const expansion = await deps.expand(parsed.command, parsed.args, deps.prompt, signal);
          await note(expansion);
          if (signal.aborted) return;
          await runTurn(expansion.text, signal, { command: parsed.command, typed: parsed.args });
        });
      case "text":
        if (parsed.note) add({ kind: "notice", text: parsed.note });
        return work(async (signal) => {
          await note();
          await runTurn(parsed.text, signal);
        });
      case "builtin":
        // /init is a prompt, not a writer: the model edits AGENTS.md through the usual approvals.
        if (parsed.name === "init") {
          return work(async (signal) => {
            await note();
            await runTurn(initPrompt(process.cwd()), signal);
          });
        }
        if (parsed.name === "recipe") {
          return work(async (signal) => {
            await note();
            await recipeTurn(runner, add, parsed.args, (text, run) => runTurn(text, signal, undefined, run));
          });
        }
        if (parsed.name === "review") {
          return work(async (signal) => {
            await note();
            if (!runner.review) return add({ kind: "notice", text: "/review runs only in a local session" });
            add({ kind: "notice", text: "reviewing: the configured checks, then a read-only reviewer (Esc stops it)" });
            add({ kind: "notice", text: await runner.review(parsed.args, signal) });
          });
        }
        return work(async () => {
          await note();
          await deps.builtin(parsed.name, parsed.args);
        });
    }
  };

  return { submit, sendNext };
}

type RecipeRun = (io: Parameters<InteractiveRunner["turn"]>[1]) => Promise<TurnOutcome>;

/** /recipe: the recipes listed (or why not), or the recipe's turn, its message shown as the person's. */
async function recipeTurn(
  runner: InteractiveRunner,
  add: TranscriptState["add"],
  args: string,
  runTurn: (text: string, run: RecipeRun) => Promise<void>,
): Promise<void> {
  if (!runner.recipe) return add({ kind: "notice", text: "/recipe runs only in a local session" });
  const got = await runner.recipe(args);
  if (got.kind === "text") return add({ kind: "notice", text: got.text });
  if (got.notice) add({ kind: "notice", text: got.notice });
  await runTurn(got.text, got.run);
}

/**
 * What a typed command does at once while a turn runs, instead of waiting for its end: `/mcp`
 * shows how the servers stand (a reconnect is refused), and /undo, /redo, /rewind are refused —
 * each recorded. True when the line was dealt with so.
 */
function answeredDuringTurn(deps: SubmitDeps, parsed: ParsedInput): boolean {
  const { runner } = deps;
  const { add } = deps.transcript;
  if (!deps.work.inTurn.current || parsed.kind !== "builtin") return false;
  if (parsed.name === "mcp") {
    const command = parseMcpCommand(parsed.args);
    const refusal = refuseWhileBusy(command, true);
    if (refusal && command.kind === "reconnect") {
      add({ kind: "notice", text: refusal });
      runner.mcpRefused?.(command.server, refusal);
    } else {
      void runner.noteInput?.(parsed).catch(() => {});
      void deps.builtin(parsed.name, parsed.args);
    }
    return true;
  }
  const action = parsed.name;
  if (!runner.revert || (action !== "undo" && action !== "redo" && action !== "rewind")) return false;
  void runner
    .revert(action, { force: false })
    .then((result) => add({ kind: "notice", text: revertText(action, result) }))
    .catch((error: unknown) => add({ kind: "notice", text: `/${action}: ${String(error)}` }));
  return true;
}
