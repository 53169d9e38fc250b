import { Box, Text } from "ink";
import type { TodoItem } from "../contracts/todo.js";
import { DelegateLine } from "./delegate-line.js";
import type { DelegateView } from "./delegate-view.js";
import { DiffText } from "./diff-text.js";
import { callOutcome, foldedDiff, isDiff } from "./events.js";
import { markdownLines } from "./markdown.js";

/** One entry of the transcript: what the person said, what the agent said or did. */
export type TranscriptItem =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  /** The model's thinking, folded to one line: how much of it there was, not what it said. */
  | { kind: "thinking"; chars: number }
  | {
      kind: "tool";
      id: string;
      name: string;
      /** The call as one line: `read src/a.ts`, `shell \`npm test\``. */
      title: string;
      status: "running" | "done" | "error";
      /** The result's one-line summary (exit code for shell). */
      summary?: string;
      /** While it runs: how far it has come, as its tool last said (`42/100 · indexing`). */
      progress?: string;
      /** Shown when expanded: the diff of an edit, the output of a command. */
      detail?: string;
      /** Shown expanded whatever the transcript's setting (a call opened again with Ctrl-O). */
      open?: boolean;
      /** The person answered its approval dialog (which showed its diff): the diff is not shown again folded. */
      asked?: boolean;
      /** A task call's delegate: its line below the call, its calls when expanded. */
      delegate?: DelegateView;
      /** A todo call's list: the plan panel shows the latest that succeeded. */
      todo?: TodoItem[];
    }
  | { kind: "notice"; text: string }
  /** A line across between two parts of the transcript: a resumed session's past and what follows. */
  | { kind: "separator"; text: string }
  | { kind: "shell"; command: string; output: string; exitCode: number | null };

function Assistant({ text }: { text: string }) {
  return (
    <Box flexDirection="column">
      {markdownLines(text).map((segments, line) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of one message never reorder
        <Text key={line}>
          {/* A blank line between blocks keeps its height: an empty <Text> would have none. */}
          {segments.every((s) => s.text === "") ? " " : null}
          {segments.map((s, i) => (
            <Text
              // biome-ignore lint/suspicious/noArrayIndexKey: segments of one line never reorder
              key={i}
              bold={s.bold === true}
              italic={s.italic === true}
              strikethrough={s.strike === true}
              dimColor={s.dim === true}
              color={s.code ? "cyan" : undefined}
            >
              {s.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

/**
 * A call, said once: `✓ shell npm test → exit 0 (1.2s)` — its status, the call, and what became
 * of it. An edit allowed without asking shows the start of its diff below; Ctrl-O (or `open`)
 * shows all of its detail. A task call's delegate has its line below (its calls too, opened).
 */
function ToolLine({ item, expanded }: { item: Extract<TranscriptItem, { kind: "tool" }>; expanded: boolean }) {
  const mark = item.status === "running" ? "…" : item.status === "done" ? "✓" : "✗";
  const color = item.status === "running" ? "yellow" : item.status === "done" ? "green" : "red";
  const outcome = callOutcome(item.name, item.summary);
  const whole = (expanded || item.open) && item.detail;
  const folded = whole ? undefined : foldedDiff(item);
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={color}>{mark}</Text> {item.title}
        {outcome ? <Text dimColor> → {outcome}</Text> : null}
        {item.status === "running" && item.progress ? <Text dimColor> · {item.progress}</Text> : null}
      </Text>
      {item.delegate ? <DelegateLine view={item.delegate} expanded={expanded || item.open === true} /> : null}
      {whole && item.detail ? (
        <Box marginLeft={2}>
          {isDiff(item.detail) ? <DiffText text={item.detail} /> : <Text dimColor>{item.detail}</Text>}
        </Box>
      ) : null}
      {folded ? (
        <Box marginLeft={2} flexDirection="column">
          <DiffText text={folded.lines.join("\n")} />
          {folded.more > 0 ? (
            <Text dimColor>
              … {folded.more} more {folded.more === 1 ? "line" : "lines"} — Ctrl-O
            </Text>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * The scrolling transcript: the person's messages, the agent's text as terminal markdown, each
 * tool call on one line (✓/✗ and its summary; `expanded` shows diffs and output), bang shell runs.
 */
export function Transcript({ items, expanded = false }: { items: readonly TranscriptItem[]; expanded?: boolean }) {
  return (
    <Box flexDirection="column">
      {items.map((item, index) => {
        const key = item.kind === "tool" ? `${item.id}-${index}` : `${item.kind}-${index}`;
        switch (item.kind) {
          case "user":
            // A line of space before each of the person's messages: turns read apart.
            return (
              <Box key={key} marginTop={1}>
                <Text color="blue">› {item.text}</Text>
              </Box>
            );
          case "assistant":
            return <Assistant key={key} text={item.text} />;
          case "tool":
            return <ToolLine key={key} item={item} expanded={expanded} />;
          case "thinking":
            return (
              <Text key={key} dimColor italic>
                ∴ thinking ({item.chars} chars)
              </Text>
            );
          case "notice":
            return (
              <Text key={key} dimColor>
                {item.text}
              </Text>
            );
          case "separator":
            return (
              <Box key={key} marginTop={1}>
                <Text dimColor>── {item.text} ──</Text>
              </Box>
            );
          case "shell":
            return (
              <Box key={key} flexDirection="column">
                <Text color="magenta">
                  ! {item.command} <Text dimColor>(exit {item.exitCode ?? "killed"})</Text>
                </Text>
                <Text dimColor>{item.output}</Text>
              </Box>
            );
          default:
            return null;
        }
      })}
    </Box>
  );
}
