import { revertText, turnLine } from "./revert-text.js";
import type { InteractiveRunner } from "./runner.js";
import type { DialogState } from "./use-dialogs.js";
import type { TranscriptState } from "./use-transcript.js";

/**
 * /undo, /redo and /rewind as the app runs them: /rewind opens a picker of the person's
 * messages first; files changed since bosun's last snapshot are shown and the person asked
 * whether to overwrite them. What happened goes into the transcript.
 */
export function revertCommand(
  runner: InteractiveRunner,
  dialogs: Pick<DialogState, "choose">,
  add: TranscriptState["add"],
) {
  return async (action: "undo" | "redo" | "rewind"): Promise<void> => {
    if (!runner.revert) {
      add({ kind: "notice", text: `/${action}: not available here` });
      return;
    }
    let to: number | undefined;
    if (action === "rewind") {
      // The person's messages, newest first: the one picked and every later turn are undone.
      const turns = (runner.turns?.() ?? []).filter((turn) => !turn.reverted).reverse();
      if (turns.length === 0) {
        add({ kind: "notice", text: "/rewind: nothing to rewind" });
        return;
      }
      const picked = await dialogs.choose(
        "Rewind to before which message",
        turns.map((turn) => ({ value: String(turn.turn), detail: turnLine(turn.text) })),
      );
      if (picked === undefined) {
        add({ kind: "notice", text: "/rewind: kept the session as it is" });
        return;
      }
      to = Number(picked);
    }
    const ask = { ...(to !== undefined ? { to } : {}), force: false };
    let result = await runner.revert(action, ask);
    // Files changed since bosun's last snapshot are shown and asked about, never overwritten silently.
    if (!result.ok && result.changedSince?.length) {
      const answer = await dialogs.choose(
        `Changed since bosun's last snapshot: ${result.changedSince.join(", ")}. Overwrite them`,
        [
          { value: "no", detail: "keep them; nothing is undone" },
          { value: "overwrite", detail: "put the snapshot's version back over them" },
        ],
      );
      if (answer === "overwrite") result = await runner.revert(action, { ...ask, force: true });
    }
    add({ kind: "notice", text: revertText(action, result) });
  };
}
