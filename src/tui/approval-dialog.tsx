import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import type { ApprovalRequest, PersonReply } from "../permission/gate/approval.js";
import { describeRequest } from "../permission/gate/prompt-terminal.js";
import { formatAlwaysRule } from "../permission/rules/always.js";
import { useArmed } from "./armed.js";
import { DiffText } from "./diff-text.js";

/**
 * The person's seat (call.approval) in the TUI: the tool (and the delegate asking, when one is:
 * `build delegate · shell needs your approval`), every request with the rules' answer,
 * the diff, then allow once / allow always (each option shows the exact rules it saves) / deny /
 * deny with a message. Keys: o, a (then 1–9 when several "always" options), d, m (type, Enter),
 * Esc leaves (the call is denied and the turn stops). Nothing else runs for the call meanwhile.
 * The choices show, and keys count, only once the dialog has been up a moment (see armed.ts).
 */
export function ApprovalDialog({
  request,
  onAnswer,
  armDelayMs,
}: {
  request: ApprovalRequest;
  onAnswer: (reply: PersonReply) => void;
  armDelayMs?: number;
}) {
  const { armed, ready } = useArmed(armDelayMs);
  // Refs as well as state: keys can arrive before React re-renders (a fast terminal, a busy machine).
  const state = useRef<{ mode: "choose" | "always" | "message"; message: string }>({ mode: "choose", message: "" });
  const [{ mode, message }, setShown] = useState(state.current);
  const update = (change: Partial<typeof state.current>) => {
    state.current = { ...state.current, ...change };
    setShown(state.current);
  };
  const setMode = (next: typeof state.current.mode) => update({ mode: next });
  const options = request.always.options;

  useInput((input, key) => {
    if (!ready.current) return;
    const { mode, message } = state.current;
    if (key.escape) {
      if (mode === "choose") onAnswer({ kind: "cancel" });
      else setMode("choose");
      return;
    }
    if (mode === "message") {
      if (key.return) {
        if (message.trim()) onAnswer({ kind: "deny", message: message.trim() });
        return;
      }
      if (key.backspace || key.delete) update({ message: message.slice(0, -1) });
      else if (input && !key.ctrl && !key.meta) {
        // A line typed with its Enter in one chunk: the text, then the answer.
        if (input.endsWith("\r") && input.trim()) onAnswer({ kind: "deny", message: (message + input).trim() });
        else update({ message: message + input });
      }
      return;
    }
    if (mode === "always") {
      const option = options[Number(input) - 1];
      if (option) onAnswer({ kind: "always", option });
      return;
    }
    if (input === "o") onAnswer({ kind: "once" });
    else if (input === "a" && options.length === 1 && options[0]) onAnswer({ kind: "always", option: options[0] });
    else if (input === "a" && options.length > 1) setMode("always");
    else if (input === "d") onAnswer({ kind: "deny" });
    else if (input === "m") setMode("message");
  });

  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        {request.from ? `${request.from.agent} delegate · ` : ""}
        {request.tool} needs your approval
      </Text>
      <DiffText text={describeRequest(request)} />
      {!armed ? <Text dimColor>the choices open in a moment; keys typed until then are ignored</Text> : null}
      {armed && mode === "choose" ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            <Text bold>o</Text> allow once
          </Text>
          {options.length === 1 && options[0] ? (
            <Text>
              <Text bold>a</Text> allow always — saves {options[0].rules.map(formatAlwaysRule).join(", ")}
            </Text>
          ) : null}
          {options.length > 1 ? (
            <Text>
              <Text bold>a</Text> allow always… ({options.length} choices)
            </Text>
          ) : null}
          <Text>
            <Text bold>d</Text> deny
          </Text>
          <Text>
            <Text bold>m</Text> deny, and tell the agent why
          </Text>
          <Text dimColor>Esc leaves: the call is denied and the turn stops</Text>
        </Box>
      ) : null}
      {mode === "always" ? (
        <Box flexDirection="column" marginTop={1}>
          {options.map((option, index) => (
            <Text key={option.label}>
              <Text bold>{index + 1}</Text> {option.label} — saves {option.rules.map(formatAlwaysRule).join(", ")}
            </Text>
          ))}
          <Text dimColor>Esc goes back</Text>
        </Box>
      ) : null}
      {mode === "message" ? (
        <Box marginTop={1}>
          <Text>What should the agent know? </Text>
          <Text color="cyan">{message}</Text>
          <Text inverse> </Text>
        </Box>
      ) : null}
    </Box>
  );
}
