import type { Script } from "../model-server/index.js";
import { DEMO_BUG, DEMO_TASK } from "./project.js";

/**
 * The fixed script the demo's fake model follows. Each rule answers once, and only when the
 * request carries what a real model would have in front of it at that point: the task, the
 * failing test output, the file with the bug, the edit's confirmation, the passing test output.
 * If bosun misbehaved (a tool did not run, a result was lost, an edit did not apply), no rule
 * matches, the server answers HTTP 500 and records a failure, and the demo fails loudly.
 */
export function demoScript(): Script {
  const once = 1;
  return {
    models: ["demo"],
    rules: [
      {
        match: { lastMessage: DEMO_TASK, tool: "shell" },
        times: once,
        reply: {
          text: "I'll run the tests first to see what fails.",
          toolCalls: [{ id: "demo-1", name: "shell", arguments: { command: "node test.js" } }],
        },
      },
      {
        // The shell result: two failures and the exit code.
        match: {
          lastMessage: "/FAIL mean\\(\\[2, 4, 6\\]\\) is 4: got 6[\\s\\S]*1 passed, 2 failed[\\s\\S]*exit code 1/",
        },
        times: once,
        reply: {
          text: "Both mean() checks fail, median() passes. Let me read stats.js.",
          toolCalls: [{ id: "demo-2", name: "read", arguments: { path: DEMO_BUG.file } }],
        },
      },
      {
        // The read result, with the faulty line in it.
        match: { lastMessage: DEMO_BUG.wrong, tool: "edit" },
        times: once,
        reply: {
          text: "mean() divides the sum by length - 1 instead of length. Fixing that line.",
          toolCalls: [
            {
              id: "demo-3",
              name: "edit",
              arguments: { path: DEMO_BUG.file, old_string: DEMO_BUG.wrong, new_string: DEMO_BUG.right },
            },
          ],
        },
      },
      {
        // The edit result: it applied.
        match: { lastMessage: `Edited ${DEMO_BUG.file}: 1 replacement` },
        times: once,
        reply: {
          text: "Running the tests again.",
          toolCalls: [{ id: "demo-4", name: "shell", arguments: { command: "node test.js" } }],
        },
      },
      {
        // The second shell result: everything passes.
        match: { lastMessage: "/3 passed, 0 failed[\\s\\S]*exit code 0/" },
        times: once,
        reply: {
          text:
            "Fixed mean() in stats.js: it divided the sum by `values.length - 1` instead of `values.length`. " +
            "`node test.js` now passes (3 passed, 0 failed).",
        },
      },
    ],
  };
}
