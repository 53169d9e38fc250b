import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import { boundOutput } from "../tools/bound.js";

/** How much of a call's output the model is given (config output.*), and where the rest goes. */
export interface OutputBounds {
  maxLines: number;
  maxBytes: number;
  /** The session's folder for output cut from a result. */
  overflowDir: string;
}

/** The bounds config sets (output.max_lines, output.max_bytes), with the session's overflow folder. */
export function outputBounds(config: LoadedConfig, overflowDir: string): OutputBounds {
  return {
    maxLines: config.config.output.max_lines,
    maxBytes: config.config.output.max_bytes,
    overflowDir,
  };
}

/**
 * Seat `exec.truncate`: a call's output within the bounds passes unchanged; a longer one keeps
 * the end its tool says matters (`keep`), and the whole of it goes to a file the model can read.
 * Returns the text for the model, and the decision to record when it was cut. `key` names the
 * overflow file: providers reuse call ids across steps, so it carries the step too.
 */
export function boundCall(
  output: string,
  keep: "head" | "tail",
  bounds: OutputBounds,
  key: string,
): { text: string; decision?: Omit<Decision, "subject"> } {
  const bounded = boundOutput(output, {
    maxLines: bounds.maxLines,
    maxBytes: bounds.maxBytes,
    keep,
    overflowDir: bounds.overflowDir,
    callId: key,
  });
  if (!bounded.truncated) return { text: bounded.text };
  return {
    text: bounded.text,
    decision: {
      seat: "exec.truncate",
      holder: "config",
      // No `file: undefined` when it could not be saved: the answer reads back from the ledger as emitted.
      answer: {
        kept: keep,
        lines: bounded.totalLines,
        bytes: bounded.totalBytes,
        ...(bounded.overflowPath ? { file: bounded.overflowPath } : {}),
      },
      reasons: [
        {
          rule: "output over the bounds",
          detail: `${bounded.totalLines} lines, ${bounded.totalBytes} bytes > output.max_lines ${bounds.maxLines} / output.max_bytes ${bounds.maxBytes}`,
          decisive: true,
        },
      ],
    },
  };
}
