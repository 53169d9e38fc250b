import { proseOf } from "../calls/text/prose.js";
import { CHECKPOINT_EVENT } from "../compaction/checkpoint.js";
import { EV, type EventType, type Notice, type UserMessage } from "../session/events.js";
import { isEvent, type JournalEvent, journalEvents, sqliteJournal } from "../session/journal.js";
import { dropReverted, revertedRanges, TURN_SKELETON } from "../session/turns.js";
import type { SessionStore, StoredEvent } from "../store/session-store.js";
import { callTitle } from "./events.js";
import type { Past } from "./runner.js";
import { todoOf } from "./todos.js";
import type { TranscriptItem } from "./transcript.js";

/** The turns a resumed session redraws in full, and the older ones it shows one line each. */
export const PAST_FULL_TURNS = 3;
export const PAST_FOLDED_TURNS = 10;

/** The line after a resumed session's past: what was resumed, and that what follows is new. */
export function pastSeparator(past: Past): TranscriptItem {
  const what = past.forkedFrom
    ? `forked session ${past.id.slice(0, 10)} from ${past.forkedFrom.slice(0, 10)}`
    : `resumed session ${past.id.slice(0, 10)}`;
  return { kind: "separator", text: past.title ? `${what} · ${past.title}` : what };
}

/** The event types the past is drawn from: never decisions, usage or file records, which are most of a log. */
export const PAST_TYPES: readonly EventType[] = [
  EV.user,
  EV.assistant,
  EV.notice,
  EV.callFinished,
  EV.callInterrupted,
  EV.callCancelled,
  EV.turnEnded,
  CHECKPOINT_EVENT,
];

export const SUMMARISED = "— earlier conversation summarised —";
export const EARLIER = "… earlier turns (bosun sessions export has them all)";

/**
 * A session's conversation so far, as the transcript draws it, for a resumed (or forked)
 * session: the last turns in full, older ones one line each, and a line when more came before.
 * Reads only the last `full + folded` turns' events (found from the end of the log, by their
 * `turn.ended`), so resuming a long session costs what its last turns cost.
 */
export function readPast(
  store: SessionStore,
  sessionId: string,
  { full = PAST_FULL_TURNS, folded = PAST_FOLDED_TURNS }: { full?: number; folded?: number } = {},
): TranscriptItem[] {
  // The end of the turn just before the window; undefined when the whole log fits in it. (Not
  // how many turns came before: counting them would read the whole log.)
  const journal = sqliteJournal(store, sessionId);
  const before = journal.latestSeq(EV.turnEnded, full + folded);
  const window = journal.eventsAfter(before ?? 0, PAST_TYPES);
  // Undone turns are not shown: found from the turns' skeleton (read only when something was undone).
  const undone = journal.events("turn.reverted").length > 0;
  const skeleton = undone ? TURN_SKELETON.flatMap((type) => journal.events(type)).sort((a, b) => a.seq - b.seq) : [];
  const shownEvents = undone ? dropReverted(window, revertedRanges(skeleton)) : window;
  return pastItems(shownEvents, { full, earlier: before !== undefined });
}

/**
 * The transcript of journal events (in order): each turn — from the end of the one before to its
 * `turn.ended` — is drawn as it was shown live (the person's messages, the assistant's text, one
 * line per call with what became of it, `!cmd` runs, how a turn that did not finish ended), the
 * last `full` of them in full and the others one line each (`› first words · 4 calls`).
 * `earlier`: there are turns before these events, said in a line of their own. A compaction is a
 * notice line where it happened.
 */
export function pastItems(
  events: readonly StoredEvent[],
  { full = PAST_FULL_TURNS, earlier = false }: { full?: number; earlier?: boolean } = {},
): TranscriptItem[] {
  const turns = splitTurns(journalEvents(events)).filter((turn) => turn.some(shown));
  const items: TranscriptItem[] = [];
  if (earlier) items.push({ kind: "notice", text: EARLIER });
  turns.forEach((turn, index) => {
    if (index >= turns.length - full) items.push(...turnItems(turn));
    else items.push(...foldedTurn(turn));
  });
  return items;
}

/**
 * Events split after each `turn.ended`; what follows the last one (a turn cut short) is a turn
 * too. A part with no message of the person's (`!cmd`s between turns) is not a turn: it joins
 * the turn after it, or the last one.
 */
function splitTurns(events: readonly JournalEvent[]): JournalEvent[][] {
  const parts: JournalEvent[][] = [[]];
  for (const event of events) {
    parts.at(-1)?.push(event);
    if (event.type === EV.turnEnded) parts.push([]);
  }
  const turns: JournalEvent[][] = [];
  let carried: JournalEvent[] = [];
  for (const part of parts) {
    if (part.some((event) => event.type === EV.user)) {
      turns.push([...carried, ...part]);
      carried = [];
    } else carried.push(...part);
  }
  const last = turns.at(-1);
  if (last) last.push(...carried);
  else if (carried.length > 0) turns.push(carried);
  return turns;
}

/** Whether an event draws anything: bosun's own notes to the model (the environment, instructions) do not. */
function shown(event: JournalEvent): boolean {
  if (event.type === EV.notice) return bangOf(event.data) !== undefined;
  if (event.type === EV.assistant) return event.data.text !== "" || event.data.toolCalls.length > 0;
  return event.type !== EV.turnEnded || event.data.status !== "done";
}

type ToolItem = Extract<TranscriptItem, { kind: "tool" }>;

function turnItems(turn: readonly JournalEvent[]): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  /** A call's line, found by id: the latest one still waiting (providers may reuse ids across steps). */
  const settle = (id: string, change: Pick<ToolItem, "status" | "summary">) => {
    for (let at = items.length - 1; at >= 0; at--) {
      const item = items[at];
      if (item?.kind === "tool" && item.id === id && item.status === "running") {
        items[at] = { ...item, ...change };
        return;
      }
    }
  };
  for (const event of turn) {
    switch (event.type) {
      case EV.user:
        items.push({ kind: "user", text: messageText(event.data) });
        break;
      case EV.notice: {
        const bang = bangOf(event.data);
        if (bang) items.push({ kind: "shell", ...bang });
        break;
      }
      case EV.assistant: {
        const data = event.data;
        // Calls the model wrote in its text show as calls, not as its prose (the journal keeps the text whole).
        const text = proseOf(data.text, data.toolCalls);
        if (text !== "") items.push({ kind: "assistant", text });
        for (const call of data.toolCalls)
          items.push({
            kind: "tool",
            id: call.id,
            name: call.name,
            title: callTitle(call.name, call.input),
            status: "running",
            ...todoOf(call.name, call.input),
          });
        break;
      }
      case EV.callFinished: {
        const data = event.data;
        settle(data.id, { status: data.isError ? "error" : "done", summary: data.summary });
        break;
      }
      case EV.callInterrupted:
      case EV.callCancelled: {
        const { id, name } = event.data;
        const what = event.type === EV.callInterrupted ? "interrupted" : "cancelled";
        settle(id, { status: "error", summary: `${name}: ${what}` });
        break;
      }
      case EV.turnEnded: {
        const { status, message } = event.data;
        if (status === "cancelled") items.push({ kind: "notice", text: "interrupted" });
        else if (status !== "done") items.push({ kind: "notice", text: message ?? `the turn ended: ${status}` });
        break;
      }
      case CHECKPOINT_EVENT:
        items.push({ kind: "notice", text: SUMMARISED });
        break;
    }
  }
  // A call with nothing recorded after it (the process ended mid-call): not shown as still running.
  return items.map((item) =>
    item.kind === "tool" && item.status === "running"
      ? { ...item, status: "error", summary: "no result recorded" }
      : item,
  );
}

/** An older turn as one line — its first message's first words, how many calls it made and its answer's first words — and its compaction, if any. */
function foldedTurn(turn: readonly JournalEvent[]): TranscriptItem[] {
  const first = turn.find((event) => isEvent(event, EV.user))?.data;
  const answers = turn.filter((event) => isEvent(event, EV.assistant));
  const calls = answers.reduce((n, event) => n + event.data.toolCalls.length, 0);
  const reply = answers
    .map((event) => event.data.text)
    .filter((text) => text.trim() !== "")
    .at(-1);
  const bangs = turn.flatMap((event) => (event.type === EV.notice ? (bangOf(event.data) ?? []) : []));
  const parts = [
    first ? `› ${firstWords(first.text)}` : undefined,
    ...bangs.map((bang) => `! ${firstWords(bang.command)}`),
    calls > 0 ? `${calls} ${calls === 1 ? "call" : "calls"}` : undefined,
  ].filter((part) => part !== undefined);
  // The answer's first words, so a folded turn shows it was answered, not only asked.
  const answer = reply ? ` → ${firstWords(reply, 40)}` : "";
  const line: TranscriptItem = { kind: "notice", text: `${parts.join(" · ")}${answer}` };
  // A compaction keeps its place: before the turn's message (a /compact between turns) or after it.
  const compacted = turn.findIndex((event) => event.type === CHECKPOINT_EVENT);
  if (compacted < 0) return [line];
  const summarised: TranscriptItem = { kind: "notice", text: SUMMARISED };
  return compacted < turn.findIndex((event) => event.type === EV.user) ? [summarised, line] : [line, summarised];
}

/** The person's message as they wrote it, with the files attached by `-f` that it does not name as `@path`. */
function messageText(message: UserMessage): string {
  const unnamed = (message.files ?? []).filter((file) => !message.text.includes(`@${file.path}`));
  return unnamed.length === 0 ? message.text : `${message.text} ${unnamed.map((file) => `@${file.path}`).join(" ")}`;
}

/** The start of a text on one line, cut at a word near `max` characters. */
export function firstWords(text: string, max = 60): string {
  const line = text.trim().replace(/\s+/g, " ");
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The person's `!cmd` from the notice it added to the conversation (input/bang.ts bangMessage:
 * "The user ran `cmd` in the shell (exit 0):" and its output, or the command in a fenced block).
 * Undefined for bosun's other notes.
 */
export function bangOf(notice: Notice): { command: string; output: string; exitCode: number | null } | undefined {
  if (notice.kind) return undefined;
  const inline = /^The user ran `([^`\n]*)` in the shell \((.*)\):\n([\s\S]*)$/.exec(notice.text);
  const fenced = /^The user ran this in the shell \((.*)\):\n~~~sh\n([\s\S]*?)\n~~~\nOutput:\n([\s\S]*)$/.exec(
    notice.text,
  );
  const [command, outcome, output] = inline
    ? [inline[1], inline[2], inline[3]]
    : fenced
      ? [fenced[2], fenced[1], fenced[3]]
      : [];
  if (command === undefined || outcome === undefined || output === undefined) return undefined;
  const exit = /^exit (\d+)$/.exec(outcome);
  return { command, output: output === "(no output)" ? "" : output, exitCode: exit ? Number(exit[1]) : null };
}
