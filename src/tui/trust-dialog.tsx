import { Box, Text, useInput } from "ink";
import type { Loosening } from "../permission/trust/project-trust.js";
import { useArmed } from "./armed.js";

export type TrustReply = "once" | "always" | "no";

/**
 * Seat `project.trust` in the TUI: the repository's bosun.json would let more run without
 * asking. It shows exactly what and from which files; n (or Esc) keeps to your own config,
 * o trusts it for this session, a always for this exact content.
 */
export function TrustDialog({
  loosening,
  onAnswer,
  armDelayMs,
}: {
  loosening: Loosening;
  onAnswer: (answer: TrustReply) => void;
  armDelayMs?: number;
}) {
  const { armed, ready } = useArmed(armDelayMs);
  useInput((input, key) => {
    if (!ready.current) return;
    if (key.escape || input === "n") onAnswer("no");
    else if (input === "o") onAnswer("once");
    else if (input === "a") onAnswer("always");
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        This repository's bosun.json would let more run without asking
      </Text>
      {loosening.items.map((item) => (
        <Text key={item}> {item}</Text>
      ))}
      <Text dimColor>from {loosening.files.join(", ")}</Text>
      {!armed ? <Text dimColor>the choices open in a moment; keys typed until then are ignored</Text> : null}
      <Box flexDirection="column" marginTop={1} display={armed ? "flex" : "none"}>
        <Text>
          <Text bold>n</Text> no — ask as my own config says (Esc too)
        </Text>
        <Text>
          <Text bold>o</Text> yes, for this session
        </Text>
        <Text>
          <Text bold>a</Text> yes, always for this exact content{" "}
          <Text dimColor>(saves trust for {loosening.fingerprint})</Text>
        </Text>
      </Box>
    </Box>
  );
}
