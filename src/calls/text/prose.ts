import type { ModelToolCall } from "../../contracts/tool-calls.js";
import { findTextCalls } from "./classify.js";
import { withoutSpans } from "./hold.js";
import { meantAsCall, TEXT_CALL_PREFIX } from "./shim.js";

/**
 * An answer's text as the transcript shows it: without the spans read as its calls (seat
 * call.shim), which show as calls. The journal keeps the text whole (it is what the model wrote,
 * and what is replayed to it); this is for the person's views of it (a resumed TUI, an editor's
 * session/load). An answer with no call read from its text is shown as it is.
 */
export function proseOf(text: string, calls: readonly Pick<ModelToolCall, "id" | "name">[]): string {
  const read = calls.filter((c) => c.id.startsWith(TEXT_CALL_PREFIX));
  if (read.length === 0) return text;
  const names = read.map((c) => c.name);
  const found = findTextCalls(text).filter((f) => meantAsCall(f, names));
  return tidy(
    withoutSpans(
      text,
      found.map((f) => [f.start, f.end] as const),
    ),
  );
}

/** The prose left around calls taken out: no blank run where a call was, nothing but space left as nothing. */
export function tidy(text: string): string {
  const out = text.replace(/\n{3,}/g, "\n\n");
  return out.trim() === "" ? "" : out.trimEnd();
}
