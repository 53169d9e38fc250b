import { Text } from "ink";

export interface Status {
  model: string;
  agent: string;
  mode: string;
  /** Input tokens of the last request; the window when known. */
  tokens?: number;
  window?: number;
  /** Set when the window is bosun's assumption for a model nobody described (model/catalog.ts ASSUMED_LIMITS). */
  windowAssumed?: boolean;
  /** US dollars so far, when prices are known. */
  cost?: number;
  /** What is running: "thinking", "shell `npm test`", … */
  activity?: string;
}

const compact = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n));

/** One line under the input: model, agent, mode, tokens used of the window, cost so far. */
export function StatusLine({ status }: { status: Status }) {
  const tokens =
    status.tokens === undefined
      ? "—"
      : status.window
        ? `${compact(status.tokens)}/${compact(status.window)}${status.windowAssumed ? " assumed" : ""} (${Math.round((status.tokens / status.window) * 100)}%)`
        : compact(status.tokens);
  const cost = status.cost === undefined ? "" : ` · $${status.cost.toFixed(status.cost < 1 ? 4 : 2)}`;
  return (
    <Text dimColor>
      {status.model} · {status.agent} · {status.mode} · {tokens} tokens{cost}
      {status.activity ? ` · ${status.activity}` : ""}
    </Text>
  );
}
