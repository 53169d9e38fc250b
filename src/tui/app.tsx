import { Box, useApp } from "ink";
import { useMemo, useState } from "react";
import type { CustomCommand, CustomCommandSet, Expansion } from "../input/custom-commands.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import { builtins } from "./builtins.js";
import { InputBox } from "./input-box.js";
import { menuEntries } from "./menu.js";
import type { PersonBridge } from "./person-bridge.js";
import type { InteractiveRunner } from "./runner.js";
import { StatusLine } from "./status-line.js";
import { submitter } from "./submit.js";
import { TodoPanel } from "./todo-panel.js";
import { currentTodos } from "./todos.js";
import { TranscriptArea, WaitingMessages } from "./transcript-area.js";
import { Dialogs, useDialogs } from "./use-dialogs.js";
import { useKeys } from "./use-keys.js";
import { usePending } from "./use-pending.js";
import { useDropWaitingAtEnd, useOpeningLines, useSessionOpening } from "./use-session-life.js";
import { useTranscript } from "./use-transcript.js";
import { REAL_CLOCK, useModelWait, type WaitClock } from "./use-wait.js";
import { useWork } from "./use-work.js";
import { WorkLine } from "./work-line.js";

export interface AppProps {
  runner: InteractiveRunner;
  /** The custom commands found, with those shadowed and the files left out (shown in /help). */
  commands?: CustomCommandSet;
  /** Expands a custom command's template (only its own !`cmd` spans run; a repository's are judged, asking through `prompt`). */
  expand?: (command: CustomCommand, args: string, prompt: ApprovalPrompt, signal: AbortSignal) => Promise<Expansion>;
  /** Completes an `@path` being typed (Tab). */
  complete?: (partial: string) => string[];
  /** Questions and warnings of the session opening behind the prompt, for the app's dialogs and transcript. */
  person?: PersonBridge;
  /** What was typed here before (oldest first), and where each new line is kept. */
  history?: { lines: readonly string[]; keep: (line: string) => void };
  /** The clock of the seconds shown while the model is awaited; tests pass their own. */
  waitClock?: WaitClock;
  /** Lines sent as if typed, in order, once the session is open (`bosun "message"`, `bosun -r`). */
  opening?: readonly string[];
  /** The header's version and directory; no header without them. */
  welcome?: { version: string; directory: string };
}

/**
 * The interactive session: transcript, input, status line, and — when a call asks — the
 * approval dialog, which holds everything else of that call until answered. Enter sends; while
 * the agent works, what you type steers the turn at its next step (Tab makes the last one wait
 * for the turn's end instead, Ctrl-X drops it); Esc interrupts the step; Ctrl-O expands output.
 * A welcome header comes first; `/` opens the command menu; /model, /agent and /mode alone open
 * a picker; Ctrl-C clears a draft, else quits (during a turn: interrupts, and quits if pressed
 * again within a second).
 */
export function App({
  runner,
  commands = { commands: [], shadowed: [], skipped: [] },
  expand = (command: CustomCommand, args: string) =>
    Promise.resolve({ text: `${command.template}\n\n${args}`, ran: [] }),
  complete,
  person,
  history: saved,
  waitClock,
  opening,
  welcome,
}: AppProps) {
  const { exit } = useApp();
  const [history, setHistory] = useState<readonly string[]>(saved?.lines ?? []);
  const wait = useModelWait(waitClock);
  const transcript = useTranscript(runner, wait.set);
  const todos = currentTodos(transcript.items);
  const dialogs = useDialogs();
  // Effects run in the order written: the session's past is drawn (on its opening) before the
  // launch's own lines are sent (useOpeningLines), as both wait for the same opening.
  const opened = useSessionOpening(runner, person, transcript, dialogs, exit);
  // The MCP servers' prompts join the commands once the session (and so its servers) is open;
  // asked at each draw (the same array until a server's prompts change), so a new one is there.
  const served = opened ? runner.mcpCommands?.() : undefined;
  const customs = useMemo(() => [...commands.commands, ...(served ?? [])], [commands, served]);
  const menu = useMemo(() => menuEntries(customs), [customs]);
  const pending = usePending();
  const work = useWork(runner, transcript, wait.set, waitClock);
  useDropWaitingAtEnd(runner, pending);

  const builtin = builtins({ runner, commands, transcript, dialogs, exit });
  const keep = (line: string) => {
    setHistory((h) => [...h, line]);
    saved?.keep(line);
  };
  const prompt: ApprovalPrompt = { ask: dialogs.ask };
  // Asked again as a line is sent: a server's prompts may have changed since this draw.
  const customsNow = () => [...commands.commands, ...((opened && runner.mcpCommands?.()) || [])];
  const { submit, sendNext } = submitter({
    runner,
    customs: customsNow,
    keep,
    pending,
    work,
    transcript,
    prompt,
    expand,
    builtin,
  });
  useOpeningLines(runner, opening, submit);
  const keys = useKeys({ runner, work, pending, transcript, dialogOpen: dialogs.open, exit, sendNext });

  const status = runner.status();
  const { busy, started } = work;
  return (
    <Box flexDirection="column">
      <TranscriptArea
        items={transcript.items}
        settled={transcript.settled}
        expanded={transcript.expanded}
        welcome={welcome}
        opened={opened}
        status={status}
      />
      <Dialogs dialogs={dialogs} />
      {busy && started && !dialogs.open ? (
        <WorkLine
          since={started.at}
          clock={waitClock ?? REAL_CLOCK}
          tokens={() => Math.max(0, (runner.tokens?.() ?? 0) - started.tokens)}
          {...(wait.activity ? { wait: wait.activity } : {})}
        />
      ) : null}
      {todos ? <TodoPanel items={todos} /> : null}
      <WaitingMessages messages={pending.messages} mark={pending.mark} />
      <InputBox
        history={history}
        onSubmit={(line) => void submit(line)}
        disabled={dialogs.open}
        onTab={keys.onTab}
        onEmptyEnter={keys.onEmptyEnter}
        menu={menu}
        onMenu={keys.onMenu}
        onCtrlC={keys.onCtrlC}
        {...(complete ? { complete } : {})}
      />
      <StatusLine status={status} />
    </Box>
  );
}
