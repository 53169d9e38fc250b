import { Box, Static, Text, useApp, useInput } from "ink";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { CustomCommand, CustomCommandSet, Expansion } from "../input/custom-commands.js";
import { customsShadowedByBuiltin, helpText, parseInput } from "../input/slash.js";
import type { RunEvent } from "../loop/turn.js";
import type { ApprovalPrompt, ApprovalRequest, PersonReply } from "../permission/gate/approval.js";
import type { Loosening } from "../permission/trust/project-trust.js";
import { ApprovalDialog } from "./approval-dialog.js";
import { CTRL_C_WARNING, ctrlC } from "./ctrl-c.js";
import { applyEvent, finishedPrefix, lastTurnCalls } from "./events.js";
import { InputBox } from "./input-box.js";
import { ListPicker } from "./list-picker.js";
import { menuEntries } from "./menu.js";
import { pastSeparator } from "./past.js";
import type { PersonBridge } from "./person-bridge.js";
import type { Choice, InteractiveRunner, SessionEntry } from "./runner.js";
import { SessionPicker } from "./session-picker.js";
import { StatusLine } from "./status-line.js";
import { Transcript, type TranscriptItem } from "./transcript.js";
import { TrustDialog, type TrustReply } from "./trust-dialog.js";
import { usePending } from "./use-pending.js";
import { REAL_CLOCK, useModelWait, type WaitClock } from "./use-wait.js";
import { Welcome } from "./welcome.js";
import { WorkLine } from "./work-line.js";

/** The welcome header's place in the lines drawn once: first, before anything of the transcript. */
const HEADER: unique symbol = Symbol("welcome header");

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
}: {
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
}) {
  const customs = commands.commands;
  const { exit } = useApp();
  const [items, setItems] = useState<TranscriptItem[]>([]);
  // Items before this index are final: drawn once above the live part (Ink's Static), never redrawn.
  const [settled, setSettled] = useState(0);
  const settle = useCallback(
    () =>
      setItems((list) => {
        setSettled(list.length);
        return list;
      }),
    [],
  );
  const [history, setHistory] = useState<readonly string[]>(saved?.lines ?? []);
  const [busy, setBusy] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const expandedRef = useRef(false);
  const [approval, setApproval] = useState<{ request: ApprovalRequest; resolve: (r: PersonReply) => void }>();
  const [picking, setPicking] = useState<{ sessions: SessionEntry[]; resolve: (id: string | undefined) => void }>();
  const [trust, setTrust] = useState<{ loosening: Loosening; resolve: (answer: TrustReply) => void }>();
  const [choosing, setChoosing] = useState<{
    title: string;
    choices: Choice[];
    resolve: (value: string | undefined) => void;
  }>();
  // Whether the session has opened (or found it cannot, for want of a model): the header waits for its model.
  const [opened, setOpened] = useState(runner.ready === undefined);
  const menu = useMemo(() => menuEntries(customs), [customs]);
  const menuOpen = useRef(false);
  const onMenu = useCallback((open: boolean) => {
    menuOpen.current = open;
  }, []);
  const lastCtrlC = useRef<number | undefined>(undefined);
  // When the running work started, and the session's tokens then: the spinner counts from there.
  const [started, setStarted] = useState<{ at: number; tokens: number }>();
  const controller = useRef<AbortController | undefined>(undefined);
  const [, setTick] = useState(0);

  const add = useCallback((item: TranscriptItem) => setItems((list) => [...list, item]), []);
  /** A resumed session's conversation so far, then a line saying so: drawn once, above what follows. */
  const showPast = useCallback(() => {
    const past = runner.takePast?.();
    if (!past) return;
    setItems((list) => {
      const next = [...list, ...past.items, pastSeparator(past)];
      setSettled((settled) => Math.max(settled, finishedPrefix(next)));
      return next;
    });
  }, [runner]);
  // The prompt is drawn before the session has opened; the status line fills in when it has.
  useEffect(() => {
    // A session that cannot open ends the app; bosun then prints why, once, below it.
    runner.ready?.then(
      () => {
        setOpened(true);
        showPast();
        // No model: the session stays open and says what to set up.
        const setup = runner.setup?.();
        if (setup) add({ kind: "notice", text: setup });
        setTick((t) => t + 1);
      },
      (error: Error) => exit(error),
    );
  }, [runner, exit, add, showPast]);
  const wait = useModelWait(waitClock);
  const setWaiting = wait.set;
  const onEvent = useCallback(
    (event: RunEvent) => {
      if (event.type === "model_wait") return setWaiting(event.waiting);
      setItems((list) => {
        const next = applyEvent(list, event);
        // What is final is drawn once, above: a long turn does not redraw its past on every word.
        const done = finishedPrefix(next);
        setSettled((settled) => Math.max(settled, done));
        return next;
      });
      setTick((t) => t + 1);
    },
    [setWaiting],
  );
  const ask = useCallback(
    (request: ApprovalRequest, signal: AbortSignal) =>
      openDialog<PersonReply>(
        (resolve) => setApproval({ request, resolve }),
        () => setApproval(undefined),
        signal,
        { kind: "cancel" },
      ),
    [],
  );
  const prompt: ApprovalPrompt = { ask };
  useEffect(() => {
    person?.attach({
      ask,
      askTrust: (loosening, signal) =>
        openDialog<TrustReply>(
          (resolve) => setTrust({ loosening, resolve }),
          () => setTrust(undefined),
          signal,
          "no",
        ),
      notice: (text) => add({ kind: "notice", text }),
    });
  }, [person, add, ask]);

  // Refs, not only state: a key can arrive before React re-renders with the last answer.
  // `busy`: something runs (a turn, a !cmd, a command's spans, /compact, a switch); only one
  // thing runs at a time. `inTurn`: a turn runs, so a typed message can steer it.
  const busyRef = useRef(false);
  const inTurn = useRef(false);
  const pending = usePending();

  /** Runs one piece of work with Esc able to stop it; then what waited goes next, unless Esc stopped it. */
  const work = async (job: (signal: AbortSignal) => Promise<void>) => {
    busyRef.current = true;
    setBusy(true);
    setStarted({ at: (waitClock ?? REAL_CLOCK).now(), tokens: runner.tokens?.() ?? 0 });
    const stop = new AbortController();
    controller.current = stop;
    try {
      await job(stop.signal);
    } catch (error) {
      add({ kind: "notice", text: `error: ${(error as Error).message}` });
    } finally {
      busyRef.current = false;
      inTurn.current = false;
      setBusy(false);
      setWaiting(false);
      settle();
    }
    if (stop.signal.aborted) {
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
  // What still waits when the session ends (/exit, Ctrl-C) is recorded as never delivered.
  const waitingAtEnd = useRef(pending);
  waitingAtEnd.current = pending;
  useEffect(
    () => () => {
      for (const message of waitingAtEnd.current.all()) void runner.noteSteer?.(message, "drop", "exit");
    },
    [runner],
  );

  const runTurn = (text: string, signal: AbortSignal, from?: { command: CustomCommand; typed: string }) => {
    add({ kind: "user", text });
    inTurn.current = true;
    return runner.turn(text, { emit: onEvent, prompt, signal, steering: takeSteering }, from).then((outcome) => {
      if (outcome.status === "cancelled") add({ kind: "notice", text: "interrupted; the session stays as it was" });
      else if (outcome.status !== "done" && outcome.message) add({ kind: "notice", text: outcome.message });
    });
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

  const submit = async (line: string, typed = true) => {
    if (typed) {
      setHistory((h) => [...h, line]);
      saved?.keep(line);
    }
    const parsed = parseInput(line, customs);
    if (busyRef.current) {
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
      return builtin(parsed.name, parsed.args);
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
          const expansion = await expand(parsed.command, parsed.args, prompt, signal);
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
        return work(async () => {
          await note();
          await builtin(parsed.name, parsed.args);
        });
    }
  };

  // The launch's own lines go once the session is open; each waits for the one before, as typed lines do.
  const submitRef = useRef(submit);
  submitRef.current = submit;
  useEffect(() => {
    if (!opening || opening.length === 0) return;
    let gone = false;
    (runner.ready ?? Promise.resolve()).then(
      () => {
        for (const line of opening) if (!gone) void submitRef.current(line);
      },
      () => {},
    );
    return () => {
      gone = true;
    };
  }, [runner, opening]);

  const builtin = async (name: string, args: string) => {
    switch (name) {
      case "exit":
        await runner.close();
        exit();
        return;
      case "help":
        add({
          kind: "notice",
          text: helpText(customs, customsShadowedByBuiltin(customs), commands.shadowed, commands.skipped),
        });
        return;
      case "why":
        add({
          kind: "notice",
          text: runner.why(args || undefined, { width: process.stdout.columns || 80, color: true }),
        });
        return;
      case "compact":
        add({ kind: "notice", text: await runner.compact() });
        return;
      case "resume": {
        // Without an id: the person picks from this directory's sessions.
        const sessions = args ? [] : (runner.sessions?.() ?? []);
        if (!args && sessions.length > 0) {
          const id = await new Promise<string | undefined>((resolve) => setPicking({ sessions, resolve }));
          setPicking(undefined);
          const line = id ? await (runner.command?.("resume", id) ?? "") : "kept this session";
          // Another session: its past follows what is shown (drawn lines stay in the terminal).
          showPast();
          add({ kind: "notice", text: line });
          return;
        }
        const line = await sessionCommand(name, args);
        showPast();
        add({ kind: "notice", text: line });
        return;
      }
      case "cost":
        add({ kind: "notice", text: runner.cost ? runner.cost() : "/cost: not available here" });
        return;
      case "model":
      case "agent":
      case "mode": {
        // Alone: the person picks from what is configured; with an argument it switches at once.
        const choices = args ? [] : (runner.choices?.(name) ?? []);
        if (choices.length === 0) {
          add({ kind: "notice", text: await sessionCommand(name, args) });
          return;
        }
        const title = { model: "Switch the model", agent: "Switch the agent", mode: "Switch the permission mode" }[
          name
        ];
        const value = await new Promise<string | undefined>((resolve) => setChoosing({ title, choices, resolve }));
        setChoosing(undefined);
        const now = choices.find((c) => c.current)?.value;
        add({
          kind: "notice",
          text:
            value === undefined || value === now
              ? `kept ${name} ${now ?? ""}`.trim()
              : await sessionCommand(name, value),
        });
        return;
      }
      default:
        add({ kind: "notice", text: await sessionCommand(name, args) });
    }
  };
  const sessionCommand = async (name: string, args: string) =>
    runner.command ? runner.command(name, args) : `/${name}: not available here`;

  /**
   * Ctrl-O: calls show their details (diff, output) or go back to one line. Finished lines are
   * drawn once and stay as they were, so the last turn's finished calls are shown again below,
   * opened; a call still running opens in place.
   */
  const toggleDetails = () => {
    const open = !expandedRef.current;
    expandedRef.current = open;
    setExpanded(open);
    if (!open) return;
    const busy = busyRef.current;
    setItems((list) => {
      const calls = lastTurnCalls(list).filter((call) => call.detail && call.status !== "running");
      if (calls.length === 0) return list;
      const next: TranscriptItem[] = [
        ...list,
        { kind: "notice", text: "the last turn's calls, opened (Ctrl-O closes):" },
        ...calls.map((call) => ({ ...call, open: true })),
      ];
      // During a turn only what is final is drawn for good: a running call or streaming text stays live.
      setSettled((n) => Math.max(n, busy ? finishedPrefix(next) : next.length));
      return next;
    });
  };

  /** Ctrl-C with nothing written (the input clears a draft itself): quit, or interrupt and warn. */
  const onCtrlC = () => {
    const now = Date.now();
    const answer = ctrlC({ busy: busyRef.current, now, ...(lastCtrlC.current ? { last: lastCtrlC.current } : {}) });
    lastCtrlC.current = now;
    if (answer === "quit") {
      controller.current?.abort(new Error("the person quit (Ctrl-C)"));
      exit();
      return;
    }
    controller.current?.abort(new Error("interrupted by the person (Ctrl-C)"));
    add({ kind: "notice", text: CTRL_C_WARNING });
  };
  const dialogOpen = approval !== undefined || picking !== undefined || trust !== undefined || choosing !== undefined;

  useInput((input, key) => {
    // With a dialog open the input takes no keys, so nothing is written: Ctrl-C is the app's.
    if (key.ctrl && input === "c") {
      if (dialogOpen) onCtrlC();
      return;
    }
    if (dialogOpen) return;
    if (key.escape && busyRef.current && !menuOpen.current)
      controller.current?.abort(new Error("interrupted by the person (Esc)"));
    else if (key.ctrl && input === "o") toggleDetails();
    else if (key.ctrl && input === "x" && pending.count > 0) {
      const dropped = pending.drop();
      if (dropped) void runner.noteSteer?.(dropped, "drop");
    }
  });
  /** Tab (when no `@path` is being completed) toggles the marked waiting message; Shift-Tab moves the mark. */
  const onTab = (shift: boolean) => (shift ? pending.moveMark() : pending.toggle());
  /** Enter on an empty line, idle, with messages waiting (after an Esc): the next one goes. */
  const onEmptyEnter = () => {
    if (!busyRef.current && pending.count > 0) void sendNext(true);
  };

  // The header is drawn once, with the model the session opened with; until then it and all
  // of the transcript stay live, so nothing is drawn above it.
  const status = runner.status();
  const header = welcome ? (
    <Welcome
      version={welcome.version}
      directory={welcome.directory}
      model={status.model}
      agent={status.agent}
      mode={status.mode}
    />
  ) : null;
  const drawn = welcome && !opened ? 0 : settled;
  const frozen: Array<TranscriptItem | typeof HEADER> = [
    ...(welcome && opened ? [HEADER as typeof HEADER] : []),
    ...items.slice(0, drawn),
  ];
  return (
    <Box flexDirection="column">
      <Static items={frozen}>
        {(item, index) =>
          item === HEADER ? (
            <Box key="welcome">{header}</Box>
          ) : (
            <Transcript key={index} items={[item]} expanded={expanded} />
          )
        }
      </Static>
      {welcome && !opened ? header : null}
      <Transcript items={items.slice(drawn)} expanded={expanded} />
      {approval ? (
        <ApprovalDialog
          request={approval.request}
          onAnswer={(reply) => {
            setApproval(undefined);
            approval.resolve(reply);
          }}
        />
      ) : null}
      {picking ? <SessionPicker sessions={picking.sessions} onPick={picking.resolve} /> : null}
      {trust ? (
        <TrustDialog
          loosening={trust.loosening}
          onAnswer={(answer) => {
            setTrust(undefined);
            trust.resolve(answer);
          }}
        />
      ) : null}
      {choosing ? <ListPicker title={choosing.title} choices={choosing.choices} onPick={choosing.resolve} /> : null}
      {busy && started && !dialogOpen ? (
        <WorkLine
          since={started.at}
          clock={waitClock ?? REAL_CLOCK}
          tokens={() => Math.max(0, (runner.tokens?.() ?? 0) - started.tokens)}
          {...(wait.activity ? { wait: wait.activity } : {})}
        />
      ) : null}
      {pending.messages.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the queue is shown in order
        <Text key={i} dimColor>
          {pending.messages.length > 1 && i === pending.mark ? "› " : ""}
          {p.how === "steer" ? "↳ steer" : "⏸ queued"}: {p.text}
        </Text>
      ))}
      <InputBox
        history={history}
        onSubmit={(line) => void submit(line)}
        disabled={dialogOpen}
        onTab={onTab}
        onEmptyEnter={onEmptyEnter}
        menu={menu}
        onMenu={onMenu}
        onCtrlC={onCtrlC}
        {...(complete ? { complete } : {})}
      />
      <StatusLine status={status} />
    </Box>
  );
}

/** Opens a dialog until it is answered, or until `signal` aborts: then it closes, answered `gone`. */
function openDialog<A>(
  show: (resolve: (answer: A) => void) => void,
  hide: () => void,
  signal: AbortSignal,
  gone: A,
): Promise<A> {
  return new Promise<A>((resolve) => {
    if (signal.aborted) return resolve(gone);
    const abort = () => {
      hide();
      resolve(gone);
    };
    signal.addEventListener("abort", abort, { once: true });
    show((answer) => {
      signal.removeEventListener("abort", abort);
      resolve(answer);
    });
  });
}
