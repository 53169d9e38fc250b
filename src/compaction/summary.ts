import type { ModelMessage } from "ai";
import { outputText } from "./estimate.js";

/** The sections every summary must have, in this order (seat compaction.summary). */
export const SUMMARY_SECTIONS = ["Goal", "Decisions", "State of work", "Next step", "Relevant files"] as const;

const headings = SUMMARY_SECTIONS.map((s) => `## ${s}`);

/** The system prompt of a summary request. */
export const SUMMARY_SYSTEM = [
  "You write the summary that replaces the older part of a coding session, so the work can continue from it alone.",
  "The conversation so far is given as messages; tool calls and their results appear as text. You cannot call tools.",
  `Reply with a structured summary in markdown using exactly these headings, in this order, each with content: ${headings.join(", ")}.`,
  "- ## Goal: what the person asked for, in their words where it matters, with every constraint they gave.",
  "- ## Decisions: what was decided and why, including approaches tried and rejected.",
  "- ## State of work: what is done, what is in progress, what failed (exact errors, test results).",
  "- ## Next step: the very next thing to do.",
  '- ## Relevant files: paths with a line on each (what it holds, what changed); write "none" if there are none.',
  "Be concrete and brief: names, paths, commands, values. Do not invent anything that is not in the conversation.",
].join("\n");

/** The final user message of a summary request. */
export const SUMMARY_INSTRUCTION = `[bosun] Summarise the conversation above now, with the sections ${headings.join(", ")}. Reply with the summary only.`;

/** The correction sent when a summary lacked sections. */
export function retryInstruction(missing: readonly string[]): string {
  return `[bosun] Your summary is missing ${missing.map((s) => `"## ${s}"`).join(", ")} (absent or empty). Write the whole summary again with all of ${headings.join(", ")}, each with content.`;
}

export type SummaryCheck = { ok: true; summary: string } | { ok: false; missing: string[] };

/**
 * Code's check of a summary: every required `## ` section is there and has content. The text
 * is trimmed and a fence around the whole of it is taken off; nothing else is changed.
 */
export function checkSummary(text: string): SummaryCheck {
  const summary = unfence(text.trim());
  const found = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of summary.split("\n")) {
    const heading = /^(#{1,2})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      const title = (heading[2] as string).replace(/:$/, "").trim().toLowerCase();
      current = heading[1] === "##" && !found.has(title) ? [] : undefined;
      if (current) found.set(title, current);
      continue;
    }
    current?.push(line);
  }
  const missing = SUMMARY_SECTIONS.filter((section) => {
    const body = found.get(section.toLowerCase());
    return body === undefined || body.join("\n").trim() === "";
  });
  return missing.length > 0 ? { ok: false, missing } : { ok: true, summary };
}

function unfence(text: string): string {
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  return fenced ? (fenced[1] as string).trim() : text;
}

/**
 * The conversation as the summary request sends it: the same messages, with tool calls and
 * their results written out as text. No tools are offered to this request, and a provider may
 * refuse tool-call blocks in a request without tools; as text every provider takes them.
 */
export function asTranscript(messages: readonly ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "system") continue;
    if (message.role === "tool") {
      const results = message.content.flatMap((part) =>
        part.type === "tool-result"
          ? [
              `[result of ${part.toolName} ${part.toolCallId}${isError(part.output) ? " (error)" : ""}]\n${outputText(part.output)}`,
            ]
          : [],
      );
      if (results.length > 0) out.push({ role: "user", content: results.join("\n\n") });
      continue;
    }
    if (typeof message.content === "string") {
      out.push(
        message.role === "user"
          ? { role: "user", content: message.content }
          : { role: "assistant", content: message.content },
      );
      continue;
    }
    const text = message.content
      .flatMap((part) => {
        if (part.type === "text") return [part.text];
        if (part.type === "tool-call")
          return [`[call ${part.toolName} ${part.toolCallId}] ${JSON.stringify(part.input ?? {})}`];
        return [];
      })
      .join("\n");
    if (text === "") continue;
    out.push(message.role === "user" ? { role: "user", content: text } : { role: "assistant", content: text });
  }
  return out;
}

function isError(output: unknown): boolean {
  const type = (output as { type?: string } | undefined)?.type;
  return type === "error-text" || type === "error-json" || type === "execution-denied";
}
