import { Box, Text } from "ink";
import { currentCall, type DelegateState, type DelegateView, stateText } from "./delegate-view.js";
import { callOutcome } from "./events.js";

const COLOR: Record<DelegateState, string> = {
  waiting: "gray",
  running: "yellow",
  done: "green",
  limit: "red",
  repeat: "red",
  failed: "red",
  cancelled: "red",
  blocked: "red",
};

/**
 * A delegate under its task call: `↳ build · write x.txt · running · 2 calls · shell touch x.txt`
 * — its agent, its task, its state, how many calls it made and the one it is on. Expanded (Ctrl-O,
 * like a call's detail) its calls so far follow, each with what became of it, and each of its own
 * delegates below its task call, indented one more step.
 */
export function DelegateLine({ view, expanded }: { view: DelegateView; expanded: boolean }) {
  const now = view.state === "running" ? currentCall(view) : undefined;
  const calls = `${view.count} ${view.count === 1 ? "call" : "calls"}`;
  const hidden = view.count - view.calls.length;
  return (
    <Box flexDirection="column" marginLeft={2}>
      <Text>
        <Text dimColor>↳ </Text>
        <Text bold>{view.agent}</Text>
        {view.description ? <Text> · {view.description}</Text> : null}
        <Text color={COLOR[view.state]}> · {stateText(view.state)}</Text>
        {view.state !== "waiting" ? <Text dimColor> · {calls}</Text> : null}
        {now ? <Text dimColor> · {now.title}</Text> : null}
      </Text>
      {view.error ? <Text color="red"> error: {view.error}</Text> : null}
      {expanded ? (
        <Box flexDirection="column" marginLeft={2}>
          {hidden > 0 ? <Text dimColor>… {hidden} earlier</Text> : null}
          {view.calls.map((call, index) => {
            const mark = call.status === "running" ? "…" : call.status === "done" ? "✓" : "✗";
            const color = call.status === "running" ? "yellow" : call.status === "done" ? "green" : "red";
            const outcome = callOutcome(call.name, call.summary);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a delegate's calls only ever grow at the end
              <Box key={`${call.id}-${index}`} flexDirection="column">
                <Text>
                  <Text color={color}>{mark}</Text> {call.title}
                  {outcome ? <Text dimColor> → {outcome}</Text> : null}
                </Text>
                {call.delegate ? <DelegateLine view={call.delegate} expanded={expanded} /> : null}
              </Box>
            );
          })}
        </Box>
      ) : null}
    </Box>
  );
}
