import { Box, Static, Text } from "ink";
import type { PendingMessage } from "../input/steer.js";
import type { Status } from "./status-line.js";
import { Transcript, type TranscriptItem } from "./transcript.js";
import { Welcome } from "./welcome.js";

/** The welcome header's place in the lines drawn once: first, before anything of the transcript. */
const HEADER: unique symbol = Symbol("welcome header");

/**
 * The transcript: its final items drawn once (Ink's Static), the rest live below. The header is
 * drawn once, with the model the session opened with; until then it and all of the transcript
 * stay live, so nothing is drawn above it.
 */
export function TranscriptArea({
  items,
  settled,
  expanded,
  welcome,
  opened,
  status,
}: {
  items: TranscriptItem[];
  settled: number;
  expanded: boolean;
  welcome: { version: string; directory: string } | undefined;
  opened: boolean;
  status: Status;
}) {
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
    <>
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
    </>
  );
}

/** The messages typed while the agent works, in order, the marked one (when there are several) with ›. */
export function WaitingMessages({ messages, mark }: { messages: readonly PendingMessage[]; mark: number }) {
  return (
    <>
      {messages.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the queue is shown in order
        <Text key={i} dimColor>
          {messages.length > 1 && i === mark ? "› " : ""}
          {p.how === "steer" ? "↳ steer" : "⏸ queued"}: {p.text}
        </Text>
      ))}
    </>
  );
}
