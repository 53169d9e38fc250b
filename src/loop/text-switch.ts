import type { Decision } from "../contracts/decisions.js";
import { offerTools } from "./offer.js";
import type { TurnRun } from "./step.js";

/**
 * Seat `call.shim` (holder code): a model sent native tools that wrote its calls as text anyway
 * does not take native tools: the rest of the turn is as for `tools: "text"` — the tools
 * described in the system prompt, none sent natively, every answer's calls read from its text,
 * their results sent back as tagged text. The next turn starts native again: it is this
 * turn's model that showed it, and config (`tools`) is what settles it for good.
 */
export async function switchToText(run: TurnRun, step: number): Promise<Decision> {
  const offer = await offerTools(run.deps, run.tools.now(), { text: true });
  delete run.modelTools;
  delete run.providerRuns;
  run.system = offer.sent.system;
  run.fixedChars = offer.sent.fixedChars;
  run.shim = "configured";
  run.textMode = true;
  return {
    seat: "call.shim",
    holder: "code",
    answer: { mode: "text", from_step: step + 1 },
    reasons: [
      {
        rule: "switched",
        detail:
          "the model wrote its calls as text though native tools were sent: for the rest of the turn the tools are " +
          "described in the system prompt, none sent natively, and its calls are read from its text " +
          `(provider.${run.model.provider.name}.models.<id>.tools chooses for good)`,
        decisive: true,
      },
    ],
    subject: { step },
  };
}
