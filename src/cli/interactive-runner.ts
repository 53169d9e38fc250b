import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { decideAgent } from "../agents/select.js";
import type { Decision } from "../contracts/decisions.js";
import { bangCall, shownOf, spanRunner } from "../input/bang.js";
import { type CustomCommand, type CustomCommandSet, type Expansion, expandTemplate } from "../input/custom-commands.js";
import { inputDecision, type ParsedInput } from "../input/slash.js";
import { steerDecision } from "../input/steer.js";
import { NoModelError, noModelAdvice } from "../model/select.js";
import { describeUsage, summarizeUsage } from "../model/session-usage.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { Runtime, SessionOptions } from "../runtime/open.js";
import { namesASeat } from "../seats/seat-names.js";
import { homesOf } from "../session/home.js";
import { USAGE_EVENT } from "../session/usage.js";
import { readPast } from "../tui/past.js";
import type { InteractiveRunner, Past, SessionEntry } from "../tui/runner.js";
import { age, localTime } from "../util/time.js";
import { sessionChoices } from "./session-choices.js";
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
  // The session open now; undefined while it opens (or opens again, on a switch), when only
  // `opened` may be waited on. Nothing reads a session that is being closed.
  let live: Runtime | undefined;
  let opened: Promise<Runtime> = input.first;
  // What the live session was opened with: a change keeps every other choice (an /agent plan
  // stays plan through a /model switch).
  let current: SessionOptions = input.options;
  // The id of the session open now, or last open: a switch reopens it.
  let sessionId: string | undefined;
  // Set when another session opens: its past is still to be drawn (takePast).
  let pastDue = false;
  const track = (opening: Promise<Runtime>) => {
    opened = opening;
    return opening.then((session) => {
      live = session;
      // Another session than the one before: its past is for the transcript; a reopen of the same is not.
      if (session.session.id !== sessionId) pastDue = true;
      sessionId = session.session.id;
    });
  };
  // No model configured: the session stays unopened and the app says what to set up; /model
  // with a model of a provider set up meanwhile (a local server in bosun.json) opens it.
  let blocked: string | undefined;
  const ready = track(input.first).catch((error: unknown) => {
    if (!(error instanceof NoModelError)) throw error;
    blocked = noModelAdvice("tui");
  });
  const open = () => opened;
  /** The options that reopen the live session itself, with a change. */
  const here = (change: SessionOptions = {}): SessionOptions => {
    const { command: _, ...kept } = current;
    return { ...kept, session: sessionId, continue: false, fork: false, ...change };
  };

  /**
   * The session opened again with a change: the old one is closed first (its lease released).
   * If the change cannot be opened, the session as it was is opened again.
   */
  async function reopen(chosen: SessionOptions): Promise<{ ok: boolean; line: string }> {
    const before = await open();
    const back = here();
    live = undefined;
    let result: { ok: boolean; line: string } = { ok: false, line: "" };
    await track(
      (async () => {
        await before.close();
        try {
          const session = await openWith(chosen);
          // A command's turn-only choice is not the session's from then on.
          if (!chosen.command) current = chosen;
          result = {
            ok: true,
            line: `session ${session.session.id.slice(0, 10)} · ${session.model.ref} · ${session.agent} · ${session.mode}`,
          };
          return session;
        } catch (error) {
          result = { ok: false, line: `not changed: ${(error as Error).message}` };
          return openWith(back);
        }
      })(),
    );
    return result;
  }

  /** Your own commands' spans run as you; a repository's are judged like any shell call first. */
  async function expand(
    command: CustomCommand,
    args: string,
    prompt: ApprovalPrompt,
    stop?: AbortSignal,
  ): Promise<Expansion> {
    // Esc stops the spans, as it stops a turn; the session's end stops them too.
    const both = stop ? AbortSignal.any([signal, stop]) : signal;
    const run =
      command.scope === "global"
        ? spanRunner({ cwd, signal: both }, async (call) => (await open()).runCall(call, { signal: both, prompt }))
        : async (span: string) => (await open()).runSpan(span, prompt, both);
    return expandTemplate(command.template, args, run);
  }

  const runner: InteractiveRunner = {
    ready,
    status() {
      if (!live && blocked) return { model: "no model", agent: current.agent ?? "build", mode: current.mode ?? "—" };
      if (!live)
        return { model: "…", agent: current.agent ?? "build", mode: current.mode ?? "…", activity: "starting" };
      const { store, session } = live;
      // The conversation's own last request: a title's or a compaction summary's says nothing of the window.
      const usage = store
        .events(session.id, USAGE_EVENT)
        .map((event) => event.data as { input?: number; for?: string })
        .filter((data) => data.for === undefined)
        .at(-1);
      const total = summarizeUsage(store, session.id);
      return {
        model: live.model.ref,
        agent: live.agent,
        mode: live.mode,
        ...(usage?.input !== undefined ? { tokens: usage.input } : {}),
        ...(live.model.info.context ? { window: live.model.info.context } : {}),
        ...(total.requests > total.costUnknown ? { cost: total.cost } : {}),
      };
    },
    setup: () => (live ? undefined : blocked),
    choices(kind) {
      if (!live) return [];
      const now = kind === "model" ? live.model.ref : kind === "agent" ? live.agent : live.mode;
      return sessionChoices(kind, live.config, now);
    },
    tokens() {
      if (!live) return 0;
      const total = summarizeUsage(live.store, live.session.id);
      return total.input + total.output;
    },
    async noteInput(parsed: ParsedInput, expansion?: Expansion) {
      if (blocked && !live) return;
      const decision = inputDecision(parsed, {
        customs: customs.commands,
        shadowed: customs.shadowed,
        ...(expansion ? { expansion } : {}),
      });
      if (decision) (await open()).record(decision);
    },
    cost() {
      if (!live) return "the session is still opening";
      const { tokens, cost } = describeUsage(summarizeUsage(live.store, live.session.id));
      return `this session: ${tokens}; cost ${cost}`;
    },
    async noteSteer(message, answer, cause) {
      if (blocked && !live) return;
      // At once when the session is open: the app records what was left waiting as it closes.
      const decision = steerDecision(message, answer, cause);
      if (live) live.record(decision);
      else (await open()).record(decision);
    },
    async turn(text, io, from) {
      if (blocked && !live) return { status: "failed", steps: 0, denied: 0, message: blocked };
      const command = from?.command;
      const session = await open();
      const choice = command ? commandChoice(command, session) : undefined;
      for (const note of choice?.notes ?? []) session.record(note);
      if (choice?.refused) {
        session.record(choice.refused.decision);
        return { status: "failed", steps: 0, denied: 0, message: choice.refused.message };
      }
      const switched = choice?.command;
      if (switched) {
        const result = await reopen(here({ command: switched }));
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
        return await (await open()).turn({ text, ...(files.length > 0 ? { files } : {}) }, io);
      } finally {
        // Back to the session's own agent and model for what follows.
        if (switched) await reopen(here());
      }
    },
    async bang(command, stop) {
      if (blocked && !live) throw new Error(blocked);
      const both = stop ? AbortSignal.any([signal, stop]) : signal;
      // Through the session's call pipeline, as the person's call: the command and its output join the conversation.
      return shownOf(await (await open()).runCall(bangCall(command, { cwd, signal: both }), { signal: both }));
    },
    why(args, view) {
      if (!live) return "the session is still opening";
      // `/why [--all] [seat glob]`, as `bosun why --all --seat <glob>`.
      const words = (args ?? "").split(/\s+/).filter(Boolean);
      const all = words.includes("--all");
      const seat = words.filter((w) => w !== "--all").join(" ") || undefined;
      if (seat !== undefined && !namesASeat(seat)) return unknownSeatMessage(seat, view.width);
      return ledgerText(live.store, live.session.id, { ...view, seat, all, allHint: "/why --all" });
    },
    async compact() {
      if (blocked && !live) return blocked;
      const session = await open();
      const { compactSession } = await import("../compaction/compact.js");
      const result = await compactSession({
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
    },
    takePast(): Past | undefined {
      if (!live || !pastDue) return undefined;
      pastDue = false;
      const { store, session } = live;
      const items = readPast(store, session.id);
      if (items.length === 0) return undefined;
      // Only a session with a parent can be a fork (a delegate's has one too, without forked_from).
      const created =
        session.parentId === null
          ? undefined
          : (store.events(session.id, "session.created")[0]?.data as { forked_from?: string } | undefined);
      return {
        id: session.id,
        title: session.title,
        items,
        ...(created?.forked_from ? { forkedFrom: created.forked_from } : {}),
      };
    },
    sessions(): SessionEntry[] {
      if (!live) return [];
      return live.store
        .list(homesOf(cwd))
        .slice(0, 20)
        .map((s) => ({ id: s.id, title: s.title, updated: s.updated, current: s.id === live?.session.id }));
    },
    async command(name, args) {
      if (blocked && !live) {
        if (name !== "model" || !args) return blocked;
        // A model named now (a provider set up meanwhile) opens the session.
        const chosen = { ...current, model: args };
        let session: Runtime;
        try {
          session = await openWith(chosen);
        } catch (error) {
          return `not opened: ${(error as Error).message}`;
        }
        await track(Promise.resolve(session));
        current = chosen;
        blocked = undefined;
        return `session ${session.session.id.slice(0, 10)} · ${session.model.ref} · ${session.agent} · ${session.mode}`;
      }
      const session = await open();
      switch (name) {
        case "model":
          return args ? (await reopen(here({ model: args }))).line : `model: ${session.model.ref}`;
        case "agent":
          return args ? (await reopen(here({ agent: args }))).line : `agent: ${session.agent}`;
        case "mode":
          return args ? (await reopen(here({ mode: args }))).line : `mode: ${session.mode}`;
        case "new": {
          const { session: _, continue: __, fork: ___, command: ____, ...fresh } = current;
          return (await reopen(fresh)).line;
        }
        case "resume":
          return args ? (await reopen(here({ session: args }))).line : "resume which session? /sessions lists them";
        case "sessions":
          return (
            runner
              .sessions?.()
              .slice(0, 10)
              .map(
                (s) => `${s.id.slice(0, 10)}  ${localTime(s.updated)} (${age(s.updated)})  ${s.title || "(untitled)"}`,
              )
              .join("\n") || "no sessions here"
          );
        default:
          return `/${name}: not available here`;
      }
    },
    close: async () => {
      await live?.close();
    },
  };
  return { runner, expand, live: () => live };
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
