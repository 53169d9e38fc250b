import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { globalConfigFile } from "../../config/paths.js";
import { UsageError } from "../../errors.js";
import { completePath } from "../../input/complete-path.js";
import { discoverCustomCommands } from "../../input/custom-commands.js";
import { appendHistory, loadHistory } from "../../input/history.js";
import { NoModelError } from "../../model/select.js";
import type { SessionOptions } from "../../runtime/open.js";
import { belongsHere } from "../../session/home.js";
import { findSession } from "../../store/lookup.js";
import { SessionStore } from "../../store/session-store.js";
import { openInteractiveUi } from "../../tui/open-ui.js";
import { personBridge } from "../../tui/person-bridge.js";
import { ownVersion } from "../../util/own-files.js";
import { workspaceOf } from "../../util/repo.js";
import { interactiveRunner } from "../interactive-runner.js";

/**
 * `bosun` at a terminal: an interactive session in the working directory (a new one, or
 * `-c`/`-s`/`-r`). The prompt is drawn first; Ink and React load only here. `firstLines`: lines sent
 * as if typed once the session is open (`bosun "fix the test"`'s message, `-r`'s `/resume`).
 */
export async function interactive(options: SessionOptions, firstLines: string[] = []): Promise<void> {
  const controller = new AbortController();
  // A session resumed from another directory: the person says where to work (seat session.cwd).
  const cwdChoice = await askCwd(options, process.cwd());
  if (cwdChoice?.answer === "switch") process.chdir(cwdChoice.directory);
  const cwd = process.cwd();
  // The prompt first: Ink, React and the app load and draw; the session opens behind them, once
  // Ink has loaded (it hides CI variables while it loads, which the session's commands must see).
  const ui = openInteractiveUi();
  const person = personBridge();
  // The person's answer about the directory holds for the session it was asked about, reopened
  // (a /model switch); another session from elsewhere (/resume) stays here, and says so.
  let asked: string | undefined;
  let fresh = 0;
  const openWith = async (chosen: SessionOptions, first = false) => {
    const answered = cwdChoice && (first || (asked !== undefined && chosen.session === asked));
    // Questions while it opens go to the app's dialogs, answered from what was said for the
    // same session before; warnings go to its transcript.
    const key = first ? "launch" : (chosen.session ?? `new ${++fresh}`);
    const questions = person.forSession(key);
    const live = await (await import("../../runtime/open.js")).openRuntime({
      cwd,
      options: chosen,
      interactive: true,
      // Read in the session; but the launch's model and mode came from flags.
      face: "tui",
      launch: first,
      prompt: questions.prompt,
      trustPrompt: questions.trust,
      question: questions.question,
      warn: person.warn,
      onDecision: () => {},
      onLeaseLost: () => controller.abort(new Error("another run took over this session")),
      ...(answered ? { cwdChoice: cwdChoice.answer } : {}),
      cwdUnasked:
        "resumed with /resume in the interactive session: it stays in this directory, and says so in the transcript",
      signal: controller.signal,
    });
    if (first) asked = live.session.id;
    person.alias(key, live.session.id);
    return live;
  };
  const opening = ui.then(() => openWith(options, true));
  // Handled by the app once drawn, and by the last line here; never an unhandled rejection meanwhile.
  opening.catch(() => {});
  const customs = discoverCustomCommands({ workspace: workspaceOf(cwd), globalDir: dirname(globalConfigFile()) });
  const { runner, expand, live } = interactiveRunner({
    cwd,
    options,
    openWith,
    first: opening,
    customs,
    signal: controller.signal,
  });
  runner.ready?.catch(() => {});
  const { render, createElement, App } = await ui;
  const complete = (partial: string) => completePath(cwd, partial);
  // ↑ walks what was typed in this project before, in earlier sessions too.
  const historyFile = join(dirname(globalConfigFile()), "history.jsonl");
  const project = workspaceOf(cwd);
  const history = {
    lines: loadHistory(historyFile, project),
    keep: (line: string) => appendHistory(historyFile, project, line),
  };
  const version = ownVersion();
  const app = render(
    createElement(App, {
      runner,
      commands: customs,
      expand,
      complete,
      person,
      history,
      opening: firstLines,
      welcome: { version, directory: cwd },
    }),
    // Ctrl-C is the app's: it clears a draft first, and during a turn quits only when pressed twice.
    { exitOnCtrlC: false },
  );
  try {
    await app.waitUntilExit();
  } finally {
    // Questions still open are answered no; a session still opening is closed once it has.
    controller.abort(new Error("the interactive session ended"));
    try {
      // A session that could not open is the error it was (a config error exits 2); with no
      // model configured the app stayed open and said what to set up, and the person left.
      await opening.catch((error: unknown) => {
        if (!(error instanceof NoModelError)) throw error;
      });
    } finally {
      await live()
        ?.close()
        .catch(() => {});
    }
  }
  const last = live();
  if (last) process.stdout.write(`session ${last.session.id} · bosun why ${last.session.id.slice(0, 10)}\n`);
}

/** When `-s` names a session started in another (existing) directory, asks whether to switch back there. */
async function askCwd(
  options: SessionOptions,
  cwd: string,
): Promise<{ answer: "switch" | "stay"; directory: string } | undefined> {
  if (options.session === undefined || options.fork) return undefined;
  const store = SessionStore.open();
  let directory: string;
  try {
    directory = findSession(store, options.session).directory;
  } catch {
    return undefined; // The session's own opening reports an unknown one.
  } finally {
    store.close();
  }
  if (belongsHere(directory, cwd) || !existsSync(directory)) return undefined;
  const clack = await import("@clack/prompts");
  const choice = await clack.select({
    message: `This session was started in ${directory}. Work there?`,
    options: [
      { value: "switch", label: `Switch to ${directory}` },
      { value: "stay", label: `Stay here, in ${cwd}` },
    ],
  });
  if (clack.isCancel(choice)) throw new UsageError("cancelled: no directory chosen for the session");
  return { answer: choice as "switch" | "stay", directory };
}
