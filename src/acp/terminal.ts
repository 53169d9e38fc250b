import type { Decision } from "../contracts/decisions.js";

/**
 * Where an editor session's shell commands run (seat exec.terminal): always in bosun's own
 * process, confined as exec.sandbox decides. The editor's terminal (ACP terminal/create) would
 * run them outside bubblewrap, bosun's timeouts, output bounds and job control, where bosun
 * cannot prove what a command may reach; so it is never used, even for commands bosun would run
 * unconfined (config shell.sandbox off): one place commands run, fail closed. Their output
 * reaches the editor as the call's text content (no terminal id: bosun created no terminal).
 * Recorded when the editor offered a terminal; an editor that did not is not asked about.
 */
export function terminalDecision(offered: boolean): Decision<"bosun"> | undefined {
  if (!offered) return undefined;
  return {
    seat: "exec.terminal",
    holder: "code",
    answer: "bosun",
    reasons: [
      { rule: "the editor offered its terminal", detail: "clientCapabilities.terminal at initialize" },
      {
        rule: "commands run in bosun's own process",
        detail:
          "the editor's terminal runs outside bosun's confinement (exec.sandbox), timeouts and output bounds; output is shown as the call's content",
      },
    ],
  };
}
