import type { QuestionPrompt } from "../contracts/question.js";
import { MODES } from "../permission/rules/modes.js";
import { prepareAuthority } from "./authority.js";
import type { DelegationHost, HostTurn } from "./delegate.js";
import { backgroundTasks, delegatePool } from "./delegate-pool.js";
import type { OpenInput, Opening, Started } from "./open.js";

/** What the session lends the delegates its task tool starts; `during` says which turn is under way. */
export function delegationHost(
  input: OpenInput,
  opening: Opening,
  parts: Pick<Started, "session" | "model" | "gate" | "tools"> & { children: Set<string>; question?: QuestionPrompt },
): Started["delegation"] {
  const { store, config, prepared, agentChoice } = opening;
  const { options } = input;
  let current: HostTurn | undefined;
  const trust = prepared.setupDecisions.find((d) => d.seat === "project.trust");
  const host: DelegationHost = {
    store,
    config,
    cwd: input.cwd,
    session: parts.session,
    agent: agentChoice.agent.name,
    model: parts.model,
    depth: 0,
    gate: parts.gate,
    tools: () => parts.tools,
    offerTools: MODES[prepared.authority.mode.name].tools,
    // The person's flags hold for every agent of the run; the mode is each agent's own, then the stricter.
    prepare: (agent) =>
      prepareAuthority({
        config,
        agent,
        flags: {
          ...(options.allow ? { allow: options.allow } : {}),
          ...(options.ask ? { ask: options.ask } : {}),
          ...(options.deny ? { deny: options.deny } : {}),
        },
        store,
        cwd: input.cwd,
        ...(trust ? { trust } : {}),
      }),
    pool: delegatePool(config.config.delegate.max_parallel),
    background: backgroundTasks(),
    children: parts.children,
    turn: () => current,
    ...(parts.question ? { question: parts.question } : {}),
    ...(options.subRecipes?.length ? { subRecipes: options.subRecipes } : {}),
  };
  return {
    host,
    during: async (turn, run) => {
      current = turn;
      try {
        return await run();
      } finally {
        current = undefined;
      }
    },
  };
}
