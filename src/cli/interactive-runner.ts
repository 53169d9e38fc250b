import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { decideAgent } from "../agents/select.js";
import type { Decision } from "../contracts/decisions.js";
import { bangCall, shownOf } from "../input/bang.js";
import {
  type CustomCommand,
  type CustomCommandSet,
  type Expansion,
  mcpPromptCommand,
} from "../input/custom-commands.js";
import { expandCommand } from "../input/expand-command.js";
import { inputDecision, type ParsedInput } from "../input/slash.js";
import { steerDecision } from "../input/steer.js";
import type { McpPrompt } from "../mcp/prompts.js";
import { describeUsage, summarizeUsage } from "../model/session-usage.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { Runtime, SessionOptions } from "../runtime/open.js";
import { namesASeat } from "../seats/seat-names.js";
import { homesOf } from "../session/home.js";
import { sqliteJournal } from "../session/journal.js";
import { USAGE_EVENT } from "../session/usage.js";
import { readPast } from "../tui/past.js";
import type { InteractiveRunner, Past, SessionEntry } from "../tui/runner.js";
import { age, localTime } from "../util/time.js";
import { goalCommand } from "./goal-command.js";
import { jobsText } from "./jobs-text.js";
import { mcpCommandText, recordMcpRefusal } from "./mcp-command.js";
import { sessionChoices } from "./session-choices.js";
import { SessionSlot } from "./session-slot.js";
import { ledgerText, unknownSeatMessage } from "./why-text.js";

/**
 * The interactive session's side of the TUI: one live session at a time, opened again when the
 * person changes model, agent, mode or session (and for a custom command's own agent or model),
 * each change recorded by the seats that open it. What only a turn or /compact needs loads then:
 * the prompt is drawn before it.
 */
export function interactiveRunner(input: {
  cwd: string;
  /** The options the session was launched with. */
  options: SessionOptions;
  /** Opens a live session with these options (the launch's cwd choice and signal included). */
  openWith: (options: SessionOptions) => Promise<Runtime>;
  /** Settles when the first session is open. */
  first: Promise<Runtime>;
  customs: CustomCommandSet;
  signal: AbortSignal;
}): { runner: InteractiveRunner; expand: typeof expand; live: () => Runtime | undefined } {
  const { cwd, openWith, customs, signal } = input;
  const slot = new SessionSlot(input.first, input.options, openWith);
  const served = promptCommands();

  /** A custom command's message (expandCommand); Esc stops its spans, as the session's end does. */
  function expand(
    command: CustomCommand,
    args: string,
    prompt: ApprovalPrompt,
    stop?: AbortSignal,
  ): Promise<Expansion> {
    const both = stop ? AbortSignal.any([signal, stop]) : signal;
    return expandCommand(() => slot.open(), command, args, { cwd, prompt, signal: both });
  }

  const runner: InteractiveRunner = {
    ready: slot.ready,
    mcpCommands: () => served.of(slot.live?.mcpPrompts() ?? NO_PROMPTS),
    ...readouts(slot, cwd),
    async noteInput(parsed: ParsedInput, expansion?: Expansion) {
      if (slot.blockedNow) return;
      const decision = inputDecision(parsed, {
        customs: customs.commands,
        shadowed: customs.shadowed,
        ...(expansion ? { expansion } : {}),
      });
      if (decision) (await slot.open()).record(decision);
    },
    async noteSteer(message, answer, cause) {
      if (slot.blockedNow) return;
      // At once when the session is open: the app records what was left waiting as it closes.
      const decision = steerDecision(message, answer, cause);
      if (slot.live) slot.live.record(decision);
      else (await slot.open()).record(decision);
    },
    turn: (text, io, from) => turnIn(slot, cwd, text, io, from),
    async bang(command, stop) {
      const blocked = slot.blockedNow;
      if (blocked) throw new Error(blocked);
      const both = stop ? AbortSignal.any([signal, stop]) : signal;
      // Through the session's call pipeline, as the person's call: the command and its output join the conversation.
      return shownOf(await (await slot.open()).runCall(bangCall(command, { cwd, signal: both }), { signal: both }));
    },
    compact: () => compactNow(slot, signal),
    async revert(action, options) {
      const blocked = slot.blockedNow;
      if (blocked) return { ok: false, reasons: [], message: blocked };
      const live = await slot.open();
      return live.revert({ action: action === "rewind" || options.to !== undefined ? "rewind" : action, ...options });
    },
    async recipe(args) {
      const { recipeCommand } = await import("./recipe-command.js");
      return recipeCommand(slot, cwd, input.options, args);
    },
    async review(args, stop) {
      const { reviewInTui } = await import("./review-command.js");
      return reviewInTui(args, cwd, AbortSignal.any([signal, stop]), slot.live?.model.ref);
    },
    turns: () => slot.live?.turns() ?? [],
    mcp: (args) => mcpCommandText(slot, args),
    mcpRefused: (server, problem) => recordMcpRefusal(slot, server, problem),
    command: (name, args) => sessionCommand(slot, cwd, name, args),
    close: async () => {
      await slot.live?.close();
    },
  };
  return { runner, expand, live: () => slot.live };
}

/** What the app reads of the live session without changing it: its status line, choices, costs, ledger, past. */
function readouts(
  slot: SessionSlot,
  cwd: string,
): Pick<InteractiveRunner, "status" | "setup" | "choices" | "tokens" | "cost" | "why" | "takePast" | "sessions"> {
  return {
    status: () => statusOf(slot),
    setup: () => slot.blockedNow,
    choices(kind) {
      const live = slot.live;
      if (!live) return [];
      const now = kind === "model" ? live.model.ref : kind === "agent" ? live.agent : live.mode;
      return sessionChoices(kind, live.config, now);
    },
    tokens() {
      const live = slot.live;
      if (!live) return 0;
      const total = summarizeUsage(live.store, live.session.id);
      return total.input + total.output;
    },
    cost() {
      const live = slot.live;
      if (!live) return "the session is still opening";
      const { tokens, cost } = describeUsage(summarizeUsage(live.store, live.session.id));
      return `this session: ${tokens}; cost ${cost}`;
    },
    why(args, view) {
      const live = slot.live;
      if (!live) return "the session is still opening";
      // `/why [--all] [seat glob]`, as `bosun why --all --seat <glob>`.
      const words = (args ?? "").split(/\s+/).filter(Boolean);
      const all = words.includes("--all");
      const seat = words.filter((w) => w !== "--all").join(" ") || undefined;
      if (seat !== undefined && !namesASeat(seat)) return unknownSeatMessage(seat, view.width);
      return ledgerText(live.store, live.session.id, { ...view, seat, all, allHint: "/why --all" });
    },
    takePast: () => (slot.takePastDue() && slot.live ? pastOf(slot.live) : undefined),
    sessions: () => sessionEntries(slot.live, cwd),
  };
}

function statusOf(slot: SessionSlot): ReturnType<InteractiveRunner["status"]> {
  const { live, current } = slot;
  if (slot.blockedNow) return { model: "no model", agent: current.agent ?? "build", mode: current.mode ?? "—" };
  if (!live) return { model: "…", agent: current.agent ?? "build", mode: current.mode ?? "…", activity: "starting" };
  const { store, session } = live;
  // The conversation's own last request: a title's or a compaction summary's says nothing of the window.
  const usage = sqliteJournal(store, session.id)
    .events(USAGE_EVENT)
    .map((event) => event.data)
    .filter((data) => data.for === undefined)
    .at(-1);
  const total = summarizeUsage(store, session.id);
  return {
    model: live.model.ref,
    agent: live.agent,
    mode: live.mode,
    ...(usage?.input !== undefined ? { tokens: usage.input } : {}),
    ...(live.model.info.context ? { window: live.model.info.context } : {}),
    ...(live.model.assumed?.includes("context") ? { windowAssumed: true } : {}),
    ...(total.requests > total.costUnknown ? { cost: total.cost } : {}),
  };
}

/** A session just opened, as the transcript draws it; undefined when it has nothing to show. */
function pastOf(live: Runtime): Past | undefined {
  const { store, session } = live;
  const items = readPast(store, session.id);
  if (items.length === 0) return undefined;
  // Only a session with a parent can be a fork (a delegate's has one too, without forked_from).
  const created =
    session.parentId === null ? undefined : sqliteJournal(store, session.id).events("session.created")[0]?.data;
  return {
    id: session.id,
    title: session.title,
    items,
    ...(created?.forked_from ? { forkedFrom: created.forked_from } : {}),
  };
}

function sessionEntries(live: Runtime | undefined, cwd: string): SessionEntry[] {
  if (!live) return [];
  return live.store
    .list(homesOf(cwd))
    .slice(0, 20)
    .map((s) => ({ id: s.id, title: s.title, updated: s.updated, current: s.id === live?.session.id }));
}

/**
 * A turn of the live session. A custom command that asks for its own agent or model gets them
 * for its turn alone (or is refused, recorded); the session is back to its own after.
 */
async function turnIn(
  slot: SessionSlot,
  cwd: string,
  text: string,
  io: Parameters<InteractiveRunner["turn"]>[1],
  from: Parameters<InteractiveRunner["turn"]>[2],
): ReturnType<InteractiveRunner["turn"]> {
  const blocked = slot.blockedNow;
  if (blocked) return { status: "failed", steps: 0, denied: 0, message: blocked };
  const command = from?.command;
  const session = await slot.open();
  const choice = command ? commandChoice(command, session) : undefined;
  for (const note of choice?.notes ?? []) session.record(note);
  if (choice?.refused) {
    session.record(choice.refused.decision);
    return { status: "failed", steps: 0, denied: 0, message: choice.refused.message };
  }
  const switched = choice?.command;
  if (switched) {
    const result = await slot.reopen(slot.here({ command: switched }));
    if (!result.ok) return { status: "failed", steps: 0, denied: 0, message: `/${command?.name}: ${result.line}` };
  }
  try {
    // `@path` the person typed attaches a file that exists (text or image), as -f does for
    // `bosun run`; one in a repository's template or a span's output attaches nothing.
    const typed = from ? (from.typed ?? "") : text;
    const named = [...typed.matchAll(/(?:^|\s)@([^\s]+)/g)]
      .map((m) => m[1] as string)
      .filter((path) => existsSync(resolve(cwd, path)));
    const files = named.length > 0 ? await (await import("./attachments.js")).readAttachments(named, cwd) : [];
    // The goal as /goal left it now (none: null), whatever the session was opened with.
    const goal = slot.current.goal ?? null;
    return await (await slot.open()).turn({ text, ...(files.length > 0 ? { files } : {}) }, { ...io, goal });
  } finally {
    // Back to the session's own agent and model for what follows.
    if (switched) await slot.reopen(slot.here());
  }
}

async function compactNow(slot: SessionSlot, signal: AbortSignal): Promise<string> {
  const blocked = slot.blockedNow;
  if (blocked) return blocked;
  const session = await slot.open();
  const { compactSession } = await import("../compaction/compact.js");
  const { compactInstructions } = await import("../loop/window.js");
  // The session's pre_compact hooks are told of a compaction the person asked for, too.
  const instructions = await compactInstructions({ preCompact: session.preCompact, record: session.record }, "manual");
  const result = await compactSession({
    ...(instructions ? { instructions } : {}),
    store: session.store,
    sessionId: session.session.id,
    model: session.model,
    config: session.config,
    signal,
    record: session.record,
    reason: "manual",
  });
  if (result.ok) {
    const { tokensBefore, tokensAfter } = result.checkpoint;
    return `compacted: ~${tokensBefore} → ~${tokensAfter} tokens; the full history stays in the store`;
  }
  return `not compacted: ${result.error}`;
}

/** The slash commands that change the session (/model, /agent, /mode, /new, /resume) or list them (/sessions). */
async function sessionCommand(slot: SessionSlot, cwd: string, name: string, args: string): Promise<string> {
  const blocked = slot.blockedNow;
  if (blocked) {
    if (name !== "model" || !args) return blocked;
    return slot.openWithModel(args);
  }
  const session = await slot.open();
  switch (name) {
    case "model":
      return args ? (await slot.reopen(slot.here({ model: args }))).line : `model: ${session.model.ref}`;
    case "agent":
      return args ? (await slot.reopen(slot.here({ agent: args }))).line : `agent: ${session.agent}`;
    case "mode":
      return args ? (await slot.reopen(slot.here({ mode: args }))).line : `mode: ${session.mode}`;
    case "new": {
      const { session: _, continue: __, fork: ___, command: ____, goal: _____, ...fresh } = slot.current;
      return (await slot.reopen(fresh)).line;
    }
    case "resume":
      return args
        ? (await slot.reopen(slot.here({ session: args }))).line
        : "resume which session? /sessions lists them";
    case "jobs":
      return jobsText(session.jobs());
    case "goal":
      return goalCommand(slot, args);
    case "sessions":
      return (
        sessionEntries(slot.live, cwd)
          .slice(0, 10)
          .map((s) => `${s.id.slice(0, 10)}  ${localTime(s.updated)} (${age(s.updated)})  ${s.title || "(untitled)"}`)
          .join("\n") || "no sessions here"
      );
    default:
      return `/${name}: not available here`;
  }
}

/** What a custom command's front matter comes to: the switch for its turn, decisions to record, or a refusal. */
export interface CommandOutcome {
  command?: NonNullable<SessionOptions["command"]>;
  /** Decisions of what was left out (a repository's `model:`), recorded before the turn. */
  notes: Decision[];
  /** The turn does not run: recorded, and the message shown. */
  refused?: { decision: Decision; message: string };
}

/**
 * What a custom command's front matter asks for its turn: another agent or model. No command
 * lifts a read-only agent: in a plan session, `agent: build` is refused (and recorded) — the
 * person switches with /agent first if that is meant. A repository's command may switch only to
 * a read-only agent (another agent's own mode and rules could let more run than the person's
 * choice does), and does not choose the model (the model also judges calls in smart mode, and
 * decides where the conversation is sent): its `model:` is left out, and that is recorded.
 * Undefined when it asks for nothing new.
 */
export function commandChoice(command: CustomCommand, session: Runtime): CommandOutcome | undefined {
  const agent = command.agent !== undefined && command.agent !== session.agent ? command.agent : undefined;
  let model = command.model !== undefined && command.model !== session.model.ref ? command.model : undefined;
  if (agent === undefined && model === undefined) return undefined;
  const notes: Decision[] = [];
  if (model !== undefined && command.scope === "project") {
    notes.push({
      seat: "model.select",
      holder: "code",
      answer: session.model.ref,
      reasons: [
        { rule: `custom command /${command.name} model`, detail: model, source: command.file },
        {
          rule: "a repository's command does not choose the model",
          detail: `the session's own model ${session.model.ref} answers: the model also judges calls in smart mode, and decides where the conversation is sent`,
          decisive: true,
        },
      ],
      subject: { command: command.name },
    });
    model = undefined;
  }
  if (agent !== undefined) {
    const now = decideAgent(session.agent, session.config).agent;
    let wanted: ReturnType<typeof decideAgent>["agent"] | undefined;
    try {
      wanted = decideAgent(agent, session.config).agent;
    } catch {
      wanted = undefined; // Unknown: the reopen says so, naming the agents.
    }
    const refuse = (rule: string, message: string): CommandOutcome => ({
      notes,
      refused: {
        message,
        decision: {
          seat: "agent.select",
          holder: "code",
          answer: session.agent,
          reasons: [
            { rule: `custom command /${command.name} agent`, detail: agent, source: command.file },
            { rule, detail: message, decisive: true },
          ],
          subject: { command: command.name },
        },
      },
    });
    if (now.readOnly && wanted && !wanted.readOnly) {
      return refuse(
        "a command does not lift a read-only agent",
        `/${command.name} asks for agent ${agent}, which may change files, but this session's agent ${session.agent} is read-only; switch with /agent ${agent} first if you mean it`,
      );
    }
    if (command.scope === "project" && wanted && !wanted.readOnly) {
      return refuse(
        "a repository's command switches only to a read-only agent",
        `/${command.name} comes from this repository and asks for agent ${agent}, whose own mode and rules could let more run; switch with /agent ${agent} if you mean it, or keep the command in your own commands folder`,
      );
    }
  }
  if (agent === undefined && model === undefined) return { notes };
  return {
    notes,
    command: {
      name: command.name,
      file: command.file,
      ...(agent !== undefined ? { agent } : {}),
      ...(model !== undefined ? { model } : {}),
    },
  };
}

const NO_PROMPTS: readonly McpPrompt[] = [];

/**
 * The MCP prompts as commands, made again only when the servers' prompts changed (their list is
 * the same array until then): the face asks at every draw, and keeps its menu while they stand.
 */
function promptCommands() {
  let from: readonly McpPrompt[] | undefined;
  let made: CustomCommand[] = [];
  return {
    of(prompts: readonly McpPrompt[]): CustomCommand[] {
      if (prompts !== from) {
        from = prompts;
        made = prompts.map(mcpPromptCommand);
      }
      return made;
    },
  };
}
