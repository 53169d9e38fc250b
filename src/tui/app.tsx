import { Box, Static, Text, useApp, useInput } from "ink";
import { useCallback, useEffect, useRef, useState } from "react";
import type { CustomCommand, CustomCommandSet, Expansion } from "../input/custom-commands.js";
import { customsShadowedByBuiltin, helpText, parseInput } from "../input/slash.js";
import type { PendingMessage as Pending } from "../input/steer.js";
import type { RunEvent } from "../loop/turn.js";
import type { ApprovalPrompt, ApprovalRequest, PersonReply } from "../permission/approval.js";
import type { Loosening } from "../permission/project-trust.js";
import { ApprovalDialog } from "./approval-dialog.js";
import { applyEvent, lastTurnCalls } from "./events.js";
import { InputBox } from "./input-box.js";
import type { PersonBridge } from "./person-bridge.js";
import type { InteractiveRunner, SessionEntry } from "./runner.js";
import { SessionPicker } from "./session-picker.js";
import { StatusLine } from "./status-line.js";
import { Transcript, type TranscriptItem } from "./transcript.js";
import { TrustDialog, type TrustReply } from "./trust-dialog.js";

/**
 * The interactive session: transcript, input, status line, and — when a call asks — the
 * approval dialog, which holds everything else of that call until answered. Enter sends; while
 * the agent works, what you type steers the turn at its next step (Tab makes the last one wait
 * for the turn's end instead, Ctrl-X drops it); Esc interrupts the step; Ctrl-O expands output.
 */
export function App({
  runner,
  commands = { commands: [], shadowed: [], skipped: [] },
  expand = (command: CustomCommand, args: string) =>
    Promise.resolve({ text: `${command.template}\n\n${args}`, ran: [] }),
  complete,
  person,
}: {
  runner: InteractiveRunner;
  /** The custom commands found, with those shadowed and the files left out (shown in /help). */
  commands?: CustomCommandSet;
  /** Expands a custom command's template (only its own !`cmd` spans run; a repository's are judged, asking through `prompt`). */
  expand?: (command: CustomCommand, args: string, prompt: ApprovalPrompt) => Promise<Expansion>;
  /** Completes an `@path` being typed (Tab). */
  complete?: (partial: string) => string[];
  /** Questions and warnings of the session opening behind the prompt, for the app's dialogs and transcript. */
  person?: PersonBridge;
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
  const [history, setHistory] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const expandedRef = useRef(false);
  const [pending, setPending] = useState<Pending[]>([]);
  const [approval, setApproval] = useState<{ request: ApprovalRequest; resolve: (r: PersonReply) => void }>();
  const [picking, setPicking] = useState<{ sessions: SessionEntry[]; resolve: (id: string | undefined) => void }>();
  const [trust, setTrust] = useState<{ loosening: Loosening; resolve: (answer: TrustReply) => void }>();
  const controller = useRef<AbortController | undefined>(undefined);
  const [, setTick] = useState(0);

  const add = useCallback((item: TranscriptItem) => setItems((list) => [...list, item]), []);
  // The prompt is drawn before the session has opened; the status line fills in when it has.
  useEffect(() => {
    runner.ready?.then(
      () => setTick((t) => t + 1),
      (error: Error) => {
        add({ kind: "notice", text: `bosun: ${error.message}` });
        setTimeout(() => exit(error), 50);
      },
    );
  }, [runner, add, exit]);
  const onEvent = useCallback((event: RunEvent) => {
    setItems((list) => applyEvent(list, event));
    setTick((t) => t + 1);
  }, []);
  const prompt: ApprovalPrompt = {
    ask: (request) => new Promise((resolve) => setApproval({ request, resolve })),
  };
  useEffect(() => {
    person?.attach({
      ask: (request) => new Promise((resolve) => setApproval({ request, resolve })),
      askTrust: (loosening) => new Promise((resolve) => setTrust({ loosening, resolve })),
      notice: (text) => add({ kind: "notice", text }),
    });
  }, [person, add]);

  // Refs, not only state: a key can arrive before React re-renders with the last answer.
  const busyRef = useRef(false);
  const queue = useRef<Pending[]>([]);
  const setQueue = (next: Pending[]) => {
    queue.current = next;
    setPending(next);
  };

  const runTurn = async (text: string, from?: { command: CustomCommand; typed: string }) => {
    add({ kind: "user", text });
    busyRef.current = true;
    setBusy(true);
    controller.current = new AbortController();
    try {
      const outcome = await runner.turn(
        text,
        {
          emit: onEvent,
          prompt,
          signal: controller.current.signal,
          steering: takeSteering,
        },
        from,
      );
      if (outcome.status === "cancelled") add({ kind: "notice", text: "interrupted; the session stays as it was" });
      else if (outcome.status !== "done" && outcome.message) add({ kind: "notice", text: outcome.message });
    } catch (error) {
      add({ kind: "notice", text: `error: ${(error as Error).message}` });
    } finally {
      busyRef.current = false;
      setBusy(false);
      settle();
    }
    // What waited for the turn to end goes next, in order.
    const [next, ...rest] = queue.current;
    setQueue(rest);
    if (next) {
      void runner.noteSteer?.(next, "queue");
      await submit(next.text, false);
    }
  };

  /** The steering messages, for the loop at a step boundary: shown as the person's, gone from the queue. */
  const takeSteering = () => {
    const steer = queue.current.filter((m) => m.how === "steer");
    if (steer.length === 0) return [];
    setQueue(queue.current.filter((m) => m.how !== "steer"));
    for (const m of steer) {
      add({ kind: "user", text: m.text });
      void runner.noteSteer?.(m, "steer");
    }
    return steer.map((m) => m.text);
  };

  const submit = async (line: string, typed = true) => {
    if (typed) setHistory((h) => [...h, line]);
    if (busyRef.current) {
      // Typed while the agent works: steers the turn at its next step, unless Tab makes it wait for the end.
      setQueue([...queue.current, { text: line, how: "steer", chosen: false }]);
      return;
    }
    const parsed = parseInput(line, customs);
    // What the line was goes on record (a `!cmd` with its exit code, once it has run).
    const note = (expansion?: Expansion) => runner.noteInput?.(parsed, expansion).catch(() => {});
    switch (parsed.kind) {
      case "bang": {
        const result = await runner.bang(parsed.command);
        add({ kind: "shell", command: parsed.command, output: result.output, exitCode: result.exitCode });
        settle();
        return;
      }
      case "custom": {
        const expansion = await expand(parsed.command, parsed.args, prompt);
        await note(expansion);
        await runTurn(expansion.text, { command: parsed.command, typed: parsed.args });
        return;
      }
      case "text":
        if (parsed.note) add({ kind: "notice", text: parsed.note });
        await note();
        await runTurn(parsed.text);
        return;
      case "builtin":
        await note();
        await builtin(parsed.name, parsed.args);
        settle();
        return;
    }
  };

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
        add({ kind: "notice", text: runner.why(args || undefined) });
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
          add({ kind: "notice", text: id ? await (runner.command?.("resume", id) ?? "") : "kept this session" });
          return;
        }
        add({ kind: "notice", text: await sessionCommand(name, args) });
        return;
      }
      case "cost": {
        const s = runner.status();
        add({
          kind: "notice",
          text: `tokens ${s.tokens ?? 0}${s.cost !== undefined ? `, $${s.cost.toFixed(4)}` : ""}`,
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
   * Ctrl-O: calls show their details (diff, output) or go back to one line. Settled lines are
   * drawn once and stay as they were, so when the agent is idle the last turn's calls are
   * shown again below, opened.
   */
  const toggleDetails = () => {
    const open = !expandedRef.current;
    expandedRef.current = open;
    setExpanded(open);
    if (!open || busyRef.current) return;
    setItems((list) => {
      const calls = lastTurnCalls(list).filter((call) => call.detail);
      if (calls.length === 0) return list;
      return [
        ...list,
        { kind: "notice", text: "the last turn's calls, opened (Ctrl-O closes):" },
        ...calls.map((call) => ({ ...call, open: true })),
      ];
    });
    settle();
  };

  useInput((input, key) => {
    if (approval || picking || trust) return;
    if (key.escape && busyRef.current) controller.current?.abort(new Error("interrupted by the person (Esc)"));
    else if (key.ctrl && input === "o") toggleDetails();
    else if (key.ctrl && input === "x" && queue.current.length > 0) {
      const dropped = queue.current.at(-1) as Pending;
      setQueue(queue.current.slice(0, -1));
      void runner.noteSteer?.(dropped, "drop");
    }
  });
  /** Tab (when no `@path` is being completed): the last pending message waits for the turn's end, or steers again. */
  const toggleLast = () => {
    const list = queue.current;
    if (list.length === 0) return;
    setQueue(
      list.map((m, i) =>
        i === list.length - 1 ? { ...m, how: m.how === "queue" ? "steer" : "queue", chosen: true } : m,
      ),
    );
  };

  return (
    <Box flexDirection="column">
      <Static items={items.slice(0, settled)}>
        {(item, index) => <Transcript key={index} items={[item]} expanded={expanded} />}
      </Static>
      <Transcript items={items.slice(settled)} expanded={expanded} />
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
      {pending.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the queue is shown in order
        <Text key={i} dimColor>
          {p.how === "steer" ? "↳ steer" : "⏸ queued"}: {p.text}
        </Text>
      ))}
      <InputBox
        history={history}
        onSubmit={(line) => void submit(line)}
        disabled={approval !== undefined || picking !== undefined || trust !== undefined}
        onTab={toggleLast}
        {...(complete ? { complete } : {})}
      />
      <StatusLine status={{ ...runner.status(), ...(busy ? { activity: "working (Esc interrupts)" } : {}) }} />
    </Box>
  );
}
