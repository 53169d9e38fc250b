import { agentCatalog } from "../agents/catalog.js";
import { decideAgent } from "../agents/select.js";
import type { DelegateChoice, Delegator, TaskArgs, TaskInput } from "../agents/task.js";
import type { LoadedConfig } from "../config/load.js";
import type { Agent } from "../contracts/agent.js";
import type { Decision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { Tool, ToolContext, ToolResult } from "../contracts/tools.js";
import type { DelegateEvent, RunEvent } from "../loop/turn.js";
import type { ResolvedModel } from "../model/resolve.js";
import { resolveModel } from "../model/resolve.js";
import { summarizeUsage, type UsageSummary } from "../model/session-usage.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import { sqliteJournal } from "../session/journal.js";
import { acquireLease, type Lease } from "../store/lease.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import type { RunAuthority } from "./authority.js";
import { type BackgroundTasks, backgroundTasks, type DelegatePool } from "./delegate-pool.js";
import { delegateFailure, delegateResult, noticeOf } from "./delegate-result.js";
import type { SessionGate } from "./session-gate.js";
import { decideSubRecipe, type RecipeTask, recipeResult, type SubRecipe } from "./sub-recipe.js";

/** The turn under way in a session: its person, the face it shows to, its signal, its recorder. */
export interface HostTurn {
  prompt?: ApprovalPrompt;
  emit: (event: RunEvent) => void;
  signal: AbortSignal;
  record: (decision: Decision) => void;
  /** Calls of its delegates (at any depth) refused because nobody could approve them: the turn's too. */
  countDenied?: (denied: number) => void;
}

/** What a session lends its delegates: where they are recorded, the authority they are cut from, the person. */
export interface DelegationHost {
  store: SessionStore;
  config: LoadedConfig;
  cwd: string;
  session: SessionInfo;
  /** The session's agent (the parent of its delegates). */
  agent: string;
  model: ResolvedModel;
  /** 0 for a session a person started; a delegate's is its parent's plus one. */
  depth: number;
  gate: SessionGate;
  /** Every tool the session has (its own task tool among them). */
  tools: () => readonly Tool[];
  /** False in a mode that runs no tools. */
  offerTools: boolean;
  /** An agent's own authority as config and the person's flags make it, before the intersection. */
  prepare: (agent: Agent) => RunAuthority;
  /** One line for the whole session tree (delegate.max_parallel). */
  pool: DelegatePool;
  /** This session's delegates started in the background. */
  background: BackgroundTasks;
  /** Delegates started or resumed here: their usage is this session's too. */
  children: Set<string>;
  turn: () => HostTurn | undefined;
  /** The person's question prompt, when someone is there to answer (the question tool's). */
  question?: QuestionPrompt;
  /** The run's recipe's sub_recipes, which its task tool runs by name: a top-level session's only (one level). */
  subRecipes?: readonly SubRecipe[];
}

/** What was settled before a delegate runs: its agent and model, its session and lease. */
export interface Opened {
  agent: Agent;
  agentChoice: ReturnType<typeof decideAgent>;
  model: ResolvedModel;
  modelSource?: string;
  session: SessionInfo;
  lease: Lease;
  resumed: boolean;
  depth: number;
  /** The sub-recipe this delegate is (seat delegate.recipe): its checks and response schema are its own. */
  recipe?: RecipeTask;
}

/** The agents a session's task tool offers: every agent the catalog knows (seat agent.catalog). */
export function delegateChoices(config: LoadedConfig): DelegateChoice[] {
  return agentCatalog(config).agents.map((agent) => ({
    name: agent.name,
    ...(agent.description ? { description: agent.description } : {}),
    readOnly: agent.readOnly,
  }));
}

/** The task tool's side in the runtime: each call opens (or resumes) a delegate and runs it. */
export function sessionDelegator(host: DelegationHost): Delegator {
  return {
    async run(args, context) {
      const turn = host.turn();
      if (!turn) return delegateFailure("the task tool runs only within a turn");
      const settled = settleTask(host, args, context, turn);
      if ("failure" in settled) return delegateFailure(settled.failure);
      const { input, opened } = settled;
      host.children.add(opened.session.id);
      if (!input.background) return runDelegate(host, opened, input, context, turn);
      const id = opened.session.id;
      // The parent's turn waits for it before it ends (seat turn.done); Esc stops it with the turn.
      host.background.start(
        id,
        runDelegate(host, opened, input, { ...context, signal: turn.signal }, turn).then((result) =>
          noticeOf(opened, input, result),
        ),
      );
      return {
        output: `Started task ${id} (${opened.agent.name}) in the background. Its result arrives as a notice at a later step; go on with other work meanwhile.\ntask_id: ${id}`,
        summary: `task ${opened.agent.name}: started in the background`,
        metadata: { task_id: id, agent: opened.agent.name, background: true },
      };
    },
  };
}

/**
 * The task as its delegate runs it, opened: a plain one's agent and prompt, or a sub-recipe's
 * (seat delegate.recipe, in the parent's ledger: which ran with which values, or refused).
 */
function settleTask(
  host: DelegationHost,
  args: TaskArgs,
  context: ToolContext,
  turn: HostTurn,
): { input: TaskInput; opened: Opened } | { failure: string } {
  const subject = { call: context.callId };
  if (args.recipe === undefined) {
    if (args.agent === undefined || args.prompt === undefined) return { failure: "give agent and prompt, or recipe" };
    const input = { ...args, agent: args.agent, prompt: args.prompt };
    const opened = openDelegate(host, input, context);
    return "failure" in opened ? opened : { input, opened };
  }
  const { recipe, ...ask } = args;
  const decided = decideSubRecipe(host.subRecipes ?? [], { ...ask, recipe }, host.cwd);
  const record = (decision: typeof decided.decision) =>
    turn.record({ ...decision, subject: { ...decision.subject, ...subject } });
  if (!decided.task) {
    record(decided.decision);
    return { failure: decided.refused ?? "the sub-recipe cannot run" };
  }
  const task = decided.task;
  const input = { ...args, agent: task.agent, prompt: task.prompt, description: args.description ?? task.sub.name };
  const opened = openDelegate(host, input, context, task);
  if ("failure" in opened) {
    const why = `sub-recipe "${task.sub.name}": ${opened.failure}`;
    record({ ...decided.decision, answer: "refused", reasons: [{ rule: "refused", detail: why, decisive: true }] });
    return { failure: why };
  }
  record(decided.decision);
  return { input, opened };
}

/** The agent, model, session and lease of a task call, or why the call cannot start one. */
function openDelegate(
  host: DelegationHost,
  input: TaskInput,
  context: ToolContext,
  recipe?: RecipeTask,
): Opened | { failure: string } {
  const { store, config } = host;
  const maxDepth = config.config.delegate.max_depth;
  const depth = host.depth + 1;
  // The tool is not given past the depth (seat delegate.authority says so); this holds if it ever were.
  if (depth > maxDepth) {
    return { failure: `delegates may nest ${maxDepth} deep (delegate.max_depth): this session cannot start another` };
  }
  let agentChoice: ReturnType<typeof decideAgent>;
  try {
    agentChoice = decideAgent(input.agent, config);
  } catch (error) {
    return { failure: (error as Error).message };
  }
  // A sub-recipe's mode is its agent's here: the delegate's is then the stricter of it and the parent's.
  const mode = recipe?.sub.recipe.mode as Agent["mode"];
  const agent = mode ? { ...agentChoice.agent, mode } : agentChoice.agent;
  let model = host.model;
  let modelSource: string | undefined;
  if (agent.model) {
    const resolved = resolveModel(agent.model, config);
    if (!resolved.ok)
      return { failure: `agent ${agent.name}'s model ${agent.model}: ${resolved.problem}; ${resolved.fix}` };
    model = resolved.model;
    const origin = config.origins.get(`agent.${agent.name}.model`);
    modelSource = origin ? `${origin.file ?? origin.source}${origin.line ? `:${origin.line}` : ""}` : undefined;
  }
  const found = input.task_id !== undefined ? resumable(host, input.task_id, agent.name) : undefined;
  if (found && "failure" in found) return found;
  return store.atomically(() => {
    const session =
      found?.session ??
      store.create({
        directory: host.cwd,
        parentId: host.session.id,
        title: (input.description ?? input.prompt.split("\n")[0] ?? "").slice(0, 60),
        details: {
          delegate: {
            agent: agent.name,
            ...(input.description ? { description: input.description } : {}),
            call: context.callId,
            depth,
          },
        },
      });
    let lease: Lease;
    try {
      lease = acquireLease(store, session.id);
    } catch (error) {
      return { failure: `task ${session.id} cannot be taken up: ${(error as Error).message}` };
    }
    return {
      agent,
      agentChoice,
      model,
      ...(modelSource ? { modelSource } : {}),
      session,
      lease,
      resumed: found !== undefined,
      depth,
      ...(recipe ? { recipe } : {}),
    };
  });
}

/** A task_id names a delegate of this very session, of the same agent: anything else is refused. */
function resumable(host: DelegationHost, id: string, agent: string): { session: SessionInfo } | { failure: string } {
  const session = host.store.get(id);
  if (!session || session.parentId !== host.session.id) {
    return {
      failure: `no task ${id} of this session: task_id must be one an earlier task call of this session returned`,
    };
  }
  const created = sqliteJournal(host.store, id).events("session.created")[0]?.data;
  const was = created?.delegate?.agent;
  if (was !== agent) {
    return {
      failure: `task ${id} was started with agent ${was ?? "(none)"}, not ${agent}: resume it with the same agent`,
    };
  }
  return { session };
}

/** Runs an opened delegate to its end, within a slot of the pool; its lease goes, whatever happens. */
async function runDelegate(
  host: DelegationHost,
  opened: Opened,
  input: TaskInput,
  context: ToolContext,
  turn: HostTurn,
): Promise<ToolResult> {
  const show = (state: Exclude<DelegateEvent["state"], "event">) =>
    turn.emit({
      type: "delegate",
      call: context.callId,
      task_id: opened.session.id,
      agent: opened.agent.name,
      ...(input.description ? { description: input.description } : {}),
      state,
    });
  let release: (() => void) | undefined;
  try {
    release = await host.pool.acquire(context.signal, (running) => {
      turn.record(waitDecision(host, context, running));
      show("waiting");
    });
  } catch {
    opened.lease.release();
    // Cancelled while it waited: its line ends, a background one's too (no task result shows it).
    show("cancelled");
    return delegateResult(opened, { status: "cancelled", steps: 0, denied: 0 }, undefined, context.signal);
  }
  try {
    show("running");
    const { runChild } = await import("./delegate-child.js");
    const ran = await runChild(host, opened, input, context, turn);
    // Its own delegates' are its, and so this session's too.
    for (const id of ran.children) host.children.add(id);
    turn.countDenied?.(ran.outcome.denied);
    const usage = usageOf(host.store, opened.session.id, ran.children);
    show(ran.outcome.status);
    const result = delegateResult(
      opened,
      ran.outcome,
      usage,
      context.signal,
      host.config.config.delegate.result_max_chars,
    );
    return opened.recipe && ran.recipe ? recipeResult(result, opened.recipe, ran.recipe) : result;
  } catch (error) {
    return delegateFailure(`the delegate could not run: ${(error as Error).message}`, opened.session.id);
  } finally {
    release();
    opened.lease.release();
  }
}

/** Seat delegate.limit when the pool is full: the task waits its turn, said in the parent's ledger. */
function waitDecision(host: DelegationHost, context: ToolContext, running: number): Decision {
  const origin = host.config.origins.get("delegate.max_parallel");
  return {
    seat: "delegate.limit",
    holder: origin && origin.layer !== "default" ? "config" : "code",
    answer: "wait",
    reasons: [
      {
        rule: "delegate.max_parallel",
        detail: `${running} delegates running, at most ${host.pool.max}: this one waits for a slot`,
        source: origin?.file ?? origin?.source ?? "built-in",
        decisive: true,
      },
    ],
    subject: { call: context.callId, limit: "parallel" },
  };
}

/** A delegate's tokens and cost, its own delegates' included. */
export function usageOf(
  store: SessionStore,
  sessionId: string,
  children: Iterable<string>,
  sinceMs?: number,
): UsageSummary {
  const sum = summarizeUsage(store, sessionId, sinceMs);
  for (const child of children) {
    const more = summarizeUsage(store, child, sinceMs);
    sum.input += more.input;
    sum.output += more.output;
    sum.cacheRead += more.cacheRead;
    sum.cacheWrite += more.cacheWrite;
    sum.requests += more.requests;
    sum.cost += more.cost;
    sum.costUnknown += more.costUnknown;
  }
  return sum;
}

export { backgroundTasks };
