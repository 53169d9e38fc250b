import { EV } from "../session/events.js";
import { journalEvent } from "../session/journal.js";
import type { StoredEvent } from "../store/session-store.js";
import { liveEvents } from "./checkpoint.js";
import { CHARS_PER_TOKEN, IMAGE_TOKENS } from "./estimate.js";

/** Events the projection turns into messages (a call's outcome is part of its assistant message). */
const MESSAGE_TYPES: ReadonlySet<string> = new Set([EV.user, EV.assistant, EV.notice]);

/** A fixed note stands in for an interrupted or cancelled call's output (conversation.ts). */
const NOTE_TOKENS = 40;

/** Estimated tokens one event adds to the conversation the model reads; 0 for events it never sees. */
export function eventTokens(event: StoredEvent): number {
  return Math.ceil(eventChars(event) / CHARS_PER_TOKEN);
}

/** The characters one event adds to the conversation the model reads (an image counts as IMAGE_TOKENS × 4). */
export function eventChars(stored: StoredEvent): number {
  const images = (n: number) => n * IMAGE_TOKENS * CHARS_PER_TOKEN;
  const event = journalEvent(stored);
  switch (event.type) {
    case EV.user: {
      const data = event.data;
      const files = data.files ?? [];
      const text = files.map((f) => f.path + (f.image ? "" : f.content)).join("");
      return data.text.length + text.length + images(files.filter((f) => f.image).length);
    }
    case EV.notice:
      return event.data.text.length;
    case EV.assistant: {
      const data = event.data;
      return data.text.length + data.toolCalls.map((c) => c.name + JSON.stringify(c.input ?? {})).join("").length;
    }
    case EV.callFinished: {
      const data = event.data;
      return data.output.length + images(data.images?.length ?? 0);
    }
    case EV.callInterrupted:
    case EV.callCancelled:
      return NOTE_TOKENS * CHARS_PER_TOKEN;
    default:
      return 0;
  }
}

/**
 * Where a compaction cuts: the seq of the first event kept verbatim. Only the part the model
 * still reads verbatim is considered (from the latest checkpoint's keptFrom on). Walking back
 * from the end, whole exchanges are kept while they fit `keepTokens`. An exchange starts at a
 * person's message (EV.user) — together with bosun's notes right before it, which frame it (the
 * environment) — so a tool call never loses its result, and an answer never its question.
 *
 * At least something must be summarised, so a cut is only taken where a message precedes it.
 * When not even the newest exchange fits (or it is the only one), nothing is kept verbatim and
 * the cut is after the last event (its seq + 1): everything goes into the summary. Undefined
 * when there is no message to summarise at all — "nothing to compact".
 */
export function chooseKept(events: readonly StoredEvent[], keepTokens: number): number | undefined {
  const { live } = liveEvents(events);
  const firstMessage = live.findIndex((event) => MESSAGE_TYPES.has(event.type));
  const last = events.at(-1);
  if (firstMessage === -1 || !last) return undefined;
  const starts = exchangeStarts(live).filter((start) => start > firstMessage);
  let kept = 0;
  let cut: number | undefined;
  let next = live.length;
  for (const start of starts.reverse()) {
    for (let i = start; i < next; i++) kept += eventTokens(live[i] as StoredEvent);
    next = start;
    if (kept > keepTokens) break;
    cut = (live[start] as StoredEvent).seq;
  }
  return cut ?? last.seq + 1;
}

/** Where each exchange begins: a person's message, or the first of bosun's notes right before it. */
function exchangeStarts(live: readonly StoredEvent[]): number[] {
  const starts: number[] = [];
  live.forEach((event, i) => {
    if (event.type !== EV.user) return;
    let start = i;
    for (let k = i - 1; k >= 0; k--) {
      const before = (live[k] as StoredEvent).type;
      if (before === EV.notice) start = k;
      else if (MESSAGE_TYPES.has(before)) break;
    }
    starts.push(start);
  });
  return starts;
}
