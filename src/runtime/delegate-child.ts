import { decideDelegateModel, delegateTools, describeDelegateAuthority } from "../agents/delegation.js";
import { type TaskInput, taskTool } from "../agents/task.js";
import type { Decision } from "../contracts/decisions.js";
import type { Tool, ToolContext } from "../contracts/tools.js";
import { runTurn, type TurnOutcome } from "../loop/turn.js";
import { recordUsage } from "../model/session-usage.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { AuthorityContext } from "../permission/gate/authorize.js";
import { delegateAuthority } from "../permission/rules/delegate.js";
import { MODES } from "../permission/rules/modes.js";
import { recordDecision } from "../seats/record.js";
import { createFileTracker } from "../tools/file-tracker.js";
import { createBackgroundJobs } from "../tools/jobs.js";
import { questionTool } from "../tools/question.js";
import { gateDeps, judgeModel } from "./authority.js";
import { prepareRunContext } from "./context.js";
import {
  backgroundTasks,
  type DelegationHost,
  delegateChoices,
  type HostTurn,
  type Opened,
  sessionDelegator,
} from "./delegate.js";
import { delegateRecipe } from "./delegate-recipe.js";
import { delegateLifecycleDeps } from "./lifecycle-deps.js";
import { sandboxOrigin, savedOutputs, toolLimits } from "./session-config.js";
import type { SessionGate } from "./session-gate.js";
import { seenFiles } from "./set-up.js";
import type { RecipeEnd } from "./sub-recipe.js";

/**
 * One turn of a delegate, in its own session: its authority cut from the parent's as things
 * stand (seat delegate.authority), its model (delegate.model), its tools a subset of the
 * parent's, its asks put to the parent's person labelled with the agent and task, its every
 * event shown through the parent's face. Returns how the turn ended and the delegates it started.
 */
export async function runChild(
  host: DelegationHost,
  opened: Opened,
  input: TaskInput,
  context: ToolContext,
  turn: HostTurn,
): Promise<{ outcome: TurnOutcome; children: Set<string>; recipe?: RecipeEnd }> {
  const { store, config } = host;
  const child = opened.session;
  const show = (event: Parameters<HostTurn["emit"]>[0]) =>
    turn.emit({
      type: "delegate",
      call: context.callId,
      task_id: child.id,
      agent: opened.agent.name,
      ...(input.description ? { description: input.description } : {}),
      state: "event",
      event,
    });
  const record = (decision: Decision) =>
    show({ type: "decision", decision: recordDecision(store, child.id, decision) });
  const cut = cutAuthority(host, opened, context.signal, record);
  const { authority, gate } = cut;
  const runContext = await prepareRunContext({
    config,
    // Read-only by inheritance is read-only in what the model is told too.
    agent:
      authority.readOnly && !opened.agent.readOnly ? { ...opened.agent, readOnly: { holder: "code" } } : opened.agent,
    cwd: host.cwd,
    workspace: authority.workspace,
    store,
    sessionId: child.id,
    check: gate.readCheck,
  });
  const parts = {
    ...(turn.prompt ? { prompt: labelled(turn.prompt, opened, input) } : {}),
    emit: show,
    signal: context.signal,
    record,
    ...(turn.countDenied ? { countDenied: turn.countDenied } : {}),
  };
  // One level: the delegate's own task tool runs no sub-recipes.
  const { subRecipes: _, ...lent } = host;
  const childHost: DelegationHost = {
    ...lent,
    session: child,
    agent: opened.agent.name,
    model: opened.model,
    depth: opened.depth,
    gate,
    tools: () => tools,
    offerTools: MODES[authority.mode.name].tools,
    background: backgroundTasks(),
    children: new Set(),
    turn: () => parts,
  };
  const tools = childTools(host, opened, cut, childHost, record);
  store.atomically(() => {
    setUpDecisions(host, opened, cut).forEach(record);
    for (const decision of runContext.decisions) record(decision);
  });
  const output = savedOutputs(config, child.id);
  const jobs = createBackgroundJobs();
  const toolContext = {
    cwd: host.cwd,
    files: createFileTracker({
      cwd: host.cwd,
      initial: seenFiles(store, child.id),
      onSeen: (path, seen) => store.append(child.id, "file.seen", { path, ...(seen ?? { gone: true }) }),
    }),
    jobs,
    limits: toolLimits(config),
    output,
  };
  const made = delegateRecipe(opened.recipe?.sub, {
    config,
    cwd: host.cwd,
    calls: {
      store,
      config,
      sessionId: child.id,
      gate,
      record,
      tools: () => tools,
      toolContext,
      outputPath: output.path,
      onDecision: (decision) => show({ type: "decision", decision }),
    },
    ...(parts.prompt ? { prompt: parts.prompt } : {}),
    show,
  });
  const turnOf = (text: string) =>
    runTurn(
      { text },
      {
        store,
        session: child,
        config,
        model: opened.model,
        tools,
        offerTools: MODES[authority.mode.name].tools,
        context: runContext.context,
        gate: () => gate.forTurn(parts),
        maxSteps: cut.maxSteps,
        maxStepsKey: cut.stepsKey,
        signal: context.signal,
        emit: made.watch,
        background: childHost.background,
        // Its end is the parent's hooks' to judge too (subagent_stop), recorded in its own ledger.
        ...delegateLifecycleDeps(() => gate.forTurn(parts), opened.agent.name),
        ...made.goal,
        overflowDir: output.path,
        toolContext,
      },
    );
  try {
    const ended = await made.finish(await turnOf(input.prompt), turnOf, record);
    return { ...ended, children: childHost.children };
  } finally {
    jobs.killAll();
  }
}

/** The delegate's tools: the parent's it may use, and its own task and question tools (what they start or ask is on its record). */
function childTools(
  host: DelegationHost,
  opened: Opened,
  cut: Cut,
  childHost: DelegationHost,
  record: (decision: Decision) => void,
): Tool[] {
  const own = new Set(["task", "question"]);
  const picks = (name: string) => cut.picked.tools.includes(name);
  return cut.parentTools
    .filter((tool) => !own.has(tool.name) && picks(tool.name))
    .concat(picks("task") ? [taskTool(delegateChoices(host.config), sessionDelegator(childHost))] : [])
    .concat(
      picks("question")
        ? [
            questionTool({
              ...(host.question ? { ask: host.question } : {}),
              record,
              from: `Agent ${opened.agent.name}`,
            }),
          ]
        : [],
    );
}

/** The delegate's authority cut from the parent's as things stand, its gate, its tools and budget. */
interface Cut {
  parent: AuthorityContext;
  own: AuthorityContext;
  authority: AuthorityContext;
  gate: SessionGate;
  parentTools: Tool[];
  picked: ReturnType<typeof delegateTools>;
  maxSteps: number;
  stepsKey: string;
}

function cutAuthority(
  host: DelegationHost,
  opened: Opened,
  signal: AbortSignal,
  record: (decision: Decision) => void,
): Cut {
  const { store, config } = host;
  const child = opened.session;
  const parentGate = host.gate.current();
  const own = host.prepare(opened.agent).authority;
  const authority = delegateAuthority(parentGate.authority, own, { parent: host.agent, child: opened.agent.name });
  // The parent's tools, every one: what the intersection denies outright is then not offered to
  // the delegate either, and a call to it anyway is judged and denied on record, as in the parent.
  const parentTools = [...host.tools()];
  const picked = delegateTools({
    parentTools: parentTools.map((tool) => tool.name),
    ...(opened.agent.tools ? { agentTools: opened.agent.tools } : {}),
    ...sourceOf(config, `agent.${opened.agent.name}.tools`, "agentToolsSource"),
    mayDelegate: opened.depth < config.config.delegate.max_depth,
  });
  const gate = gateDeps({
    prepared: { authority, policy: parentGate.policy, hooks: [...parentGate.hooks], setupDecisions: [] },
    store,
    sessionId: child.id,
    // The person's --auto is their advance answer for every agent of the run.
    auto: parentGate.auto,
    interactive: false,
    ...(authority.mode.name === "smart"
      ? {
          judge: {
            model: judgeModel(config, opened.model),
            config,
            signal,
            record,
            onUsage: (used, usage) => recordUsage(store, child.id, used, usage),
          },
        }
      : {}),
    sandbox: config.config.shell.sandbox,
    ...sandboxOrigin(config),
    record,
    signal,
    // The person's "always" here is theirs for the project: the parent judges by it from its next call.
    onSaved: (rules) => host.gate.adopt(rules),
  });
  return {
    parent: parentGate.authority,
    own,
    authority,
    gate,
    parentTools,
    picked,
    maxSteps: opened.agent.maxSteps ?? config.config.delegate.max_steps,
    stepsKey: opened.agent.maxSteps ? `agent.${opened.agent.name}.max_steps` : "delegate.max_steps",
  };
}

/** The delegate's own set-up, in its ledger: which agent and why, its model, its authority axis by axis. */
function setUpDecisions(host: DelegationHost, opened: Opened, cut: Cut): Decision[] {
  const { agent, agentChoice } = opened;
  const call = { rule: "task call", detail: `by ${host.agent} in session ${host.session.id}`, decisive: true };
  return [
    {
      seat: "agent.select",
      holder: "model",
      answer: agent.name,
      reasons: [
        call,
        ...agentChoice.reasons.filter((r) => !r.decisive),
        ...(opened.resumed ? [{ rule: "resumed", detail: "task_id: the same delegate goes on" }] : []),
      ],
    },
    {
      seat: "delegate.model",
      ...decideDelegateModel({
        agent: agent.name,
        ...(agent.model ? { agentModel: opened.model.ref } : {}),
        ...(opened.modelSource ? { agentModelSource: opened.modelSource } : {}),
        parentModel: host.model.ref,
      }),
    },
    {
      seat: "delegate.authority",
      ...describeDelegateAuthority({
        parentAgent: host.agent,
        agent: agent.name,
        parent: cut.parent,
        own: cut.own,
        result: cut.authority,
        tools: cut.picked,
        depth: opened.depth,
        maxDepth: host.config.config.delegate.max_depth,
        maxSteps: cut.maxSteps,
        maxStepsSource: host.config.origins.get(cut.stepsKey)?.source ?? "built-in",
      }),
    },
  ];
}

/** The parent's person, asked for the delegate: each ask says which agent, on which task, in which session. */
function labelled(prompt: ApprovalPrompt, opened: Opened, input: TaskInput): ApprovalPrompt {
  const from = {
    agent: opened.agent.name,
    ...(input.description ? { description: input.description } : {}),
    session: opened.session.id,
  };
  return { ask: (request, signal) => prompt.ask({ ...request, from: request.from ?? from }, signal) };
}

function sourceOf<K extends string>(config: DelegationHost["config"], key: string, as: K): Partial<Record<K, string>> {
  const origin = config.origins.get(key);
  if (!origin) return {};
  return { [as]: `${origin.file ?? origin.source}${origin.line ? `:${origin.line}` : ""}` } as Partial<
    Record<K, string>
  >;
}
