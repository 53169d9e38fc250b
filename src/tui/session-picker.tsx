import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { localTime } from "../util/time.js";
import type { SessionEntry } from "./runner.js";

/**
 * `/resume` without an id: this directory's recent sessions, newest first. ↑/↓ move, Enter
 * resumes the one marked, Esc keeps the session as it is.
 */
export function SessionPicker({
  sessions,
  onPick,
}: {
  sessions: readonly SessionEntry[];
  /** The chosen session's id, or undefined when the person left with Esc. */
  onPick: (id: string | undefined) => void;
}) {
  // A ref as well as state: several keys can arrive before React re-renders.
  const at = useRef(0);
  const [marked, setMarked] = useState(0);
  useInput((_input, key) => {
    if (key.escape) onPick(undefined);
    else if (key.return) onPick(sessions[at.current]?.id);
    else if (key.upArrow || key.downArrow) {
      at.current = Math.max(0, Math.min(sessions.length - 1, at.current + (key.upArrow ? -1 : 1)));
      setMarked(at.current);
    }
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Resume a session (↑/↓, Enter; Esc keeps this one)</Text>
      {sessions.map((s, i) => (
        <Text key={s.id} {...(i === marked ? { color: "cyan" } : {})}>
          {i === marked ? "›" : " "} {s.id.slice(0, 10)} {localTime(s.updated)} {s.title || "(untitled)"}
          {s.current ? <Text dimColor> (open now)</Text> : null}
        </Text>
      ))}
    </Box>
  );
}
