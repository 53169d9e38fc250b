import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { compactSession } from "../../compaction/compact.js";
import { globalConfigFile } from "../../config/paths.js";
import { UsageError } from "../../errors.js";
import { bangDecision, bangMessage, runBang, spanRunner } from "../../input/bang.js";
import { discoverCustomCommands, expandTemplate } from "../../input/custom-commands.js";
import type { ApprovalPrompt } from "../../permission/approval.js";
import { seatGlob } from "../../seats/glob.js";
import { readDecisions, recordDecision } from "../../seats/record.js";
import { formatDecision } from "../../seats/render.js";
import { EV, type Notice } from "../../session/events.js";
import { summarizeUsage, USAGE_EVENT } from "../../session/usage.js";
import { findSession } from "../../store/lookup.js";
import { SessionStore } from "../../store/session-store.js";
import { loadInteractiveUi } from "../../tui/load.js";
import type { InteractiveRunner } from "../../tui/runner.js";
import { workspaceOf } from "../../util/repo.js";
import { readAttachments } from "../attachments.js";
import { type LiveSession, openLiveSession, type SessionOptions } from "../live-session.js";

/**
 * `bosun` with no arguments at a terminal: an interactive session in the working directory (a
 * new one, or `-c`/`-s`). The prompt is drawn first; Ink and React load only here.
 */
export async function interactive(options: SessionOptions): Promise<void> {
  const controller = new AbortController();
  // A session resumed from another directory: the person says where to work (seat session.cwd).
  const cwdChoice = await askCwd(options, process.cwd());
  if (cwdChoice?.answer === "switch") process.chdir(cwdChoice.directory);
  const cwd = process.cwd();
  // The prompt first: Ink, React and the app load and draw; the session opens behind them, once
  // Ink has loaded (it hides CI variables while it loads, which the session's commands must see).
  const ui = loadInteractiveUi();
  const openWith = (chosen: SessionOptions) =>
    openLiveSession({
      cwd,
      options: chosen,
      interactive: true,
      onDecision: () => {},
      onLeaseLost: () => controller.abort(new Error("another run took over this session")),
      ...(cwdChoice ? { cwdChoice: cwdChoice.answer } : {}),
      signal: controller.signal,
    });
  const opening = ui.then(() => openWith(options));
  let live: LiveSession | undefined;
  const ready = opening.then((opened) => {
    live = opened;
  });
  // Handled by the app once drawn, and by the last line here; never an unhandled rejection meanwhile.
  ready.catch(() => {});
  const open = async () => {
    await ready;
    return live as LiveSession;
  };
  const customs = discoverCustomCommands({ workspace: workspaceOf(cwd), globalDir: dirname(globalConfigFile()) });
  const runner: InteractiveRunner = {
    ready,
    status() {
      if (!live)
        return { model: "…", agent: options.agent ?? "build", mode: options.mode ?? "…", activity: "starting" };
      const { store, session } = live;
      const usage = store.events(session.id, USAGE_EVENT).at(-1)?.data as { input?: number } | undefined;
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
    async turn(text, io) {
      const session = await open();
      // `@path` attaches a file that exists (text or image), as -f does for `bosun run`.
      const named = [...text.matchAll(/(?:^|\s)@([^\s]+)/g)]
        .map((m) => m[1] as string)
        .filter((path) => existsSync(resolve(cwd, path)));
      const files = named.length > 0 ? await readAttachments(named, cwd) : [];
      return session.turn({ text, ...(files.length > 0 ? { files } : {}) }, io);
    },
    async bang(command) {
      const { store, session } = await open();
      const result = await runBang(command, { cwd, signal: controller.signal });
      // The person's command and its output join the conversation for the model's next turn.
      store.atomically(() => {
        recordDecision(store, session.id, bangDecision(command, result));
        store.append(session.id, EV.notice, { text: bangMessage(command, result) } satisfies Notice);
      });
      return { output: result.output, exitCode: result.exitCode };
    },
    why(seat) {
      if (!live) return "the session is still opening";
      const matches = seat ? seatGlob(seat) : () => true;
      const lines = readDecisions(live.store, live.session.id)
        .filter((d) => matches(d.seat))
        .map(formatDecision);
      return lines.length > 0 ? lines.join("\n") : "no decisions recorded";
    },
    async compact() {
      const session = await open();
      const result = await compactSession({
        store: session.store,
        sessionId: session.session.id,
        model: session.model,
        config: session.config,
        signal: controller.signal,
        record: session.record,
        reason: "manual",
      });
      if (result.ok) {
        const { tokensBefore, tokensAfter } = result.checkpoint;
        return `compacted: ~${tokensBefore} → ~${tokensAfter} tokens; the full history stays in the store`;
      }
      return `not compacted: ${result.error}`;
    },
    async command(name, args) {
      const current = await open();
      const here = { ...options, session: current.session.id, continue: false, fork: false };
      switch (name) {
        case "model":
          return args ? reopen({ ...here, model: args }) : `model: ${current.model.ref}`;
        case "agent":
          return args ? reopen({ ...here, agent: args }) : `agent: ${current.agent}`;
        case "mode":
          return args ? reopen({ ...here, mode: args }) : `mode: ${current.mode}`;
        case "new": {
          const { session: _, continue: __, ...fresh } = options;
          return reopen(fresh);
        }
        case "resume":
          return args
            ? reopen({ ...options, session: args, continue: false })
            : "resume which session? /sessions lists them";
        case "sessions": {
          const listed = current.store.list(cwd).slice(0, 10);
          return (
            listed
              .map(
                (s) =>
                  `${s.id.slice(0, 10)}  ${new Date(s.updated).toISOString().slice(0, 16).replace("T", " ")}  ${s.title || "(untitled)"}`,
              )
              .join("\n") || "no sessions here"
          );
        }
        default:
          return `/${name}: not available here`;
      }
    },
    close: async () => {
      await live?.close();
    },
  };

  /**
   * The session opened again with a change (another model, agent, mode, session): the old one is
   * closed first (its lease released). If the change cannot be opened, the session before it is.
   */
  async function reopen(chosen: SessionOptions): Promise<string> {
    const before = live as LiveSession;
    const back = { ...options, session: before.session.id, continue: false, fork: false };
    await before.close();
    try {
      live = await openWith(chosen);
      return `session ${live.session.id.slice(0, 10)} · ${live.model.ref} · ${live.agent} · ${live.mode}`;
    } catch (error) {
      live = await openWith(back);
      return `not changed: ${(error as Error).message}`;
    }
  }
  // Your own commands' spans run as you; a repository's are judged like any shell call first.
  const expand = async (command: (typeof customs.commands)[number], args: string, prompt: ApprovalPrompt) => {
    const run =
      command.scope === "global"
        ? spanRunner({ cwd, signal: controller.signal })
        : async (span: string) => (await open()).runSpan(span, prompt, controller.signal);
    return (await expandTemplate(command.template, args, run)).text;
  };
  const { render, createElement, App } = await ui;
  const app = render(createElement(App, { runner, customs: customs.commands, expand }), { exitOnCtrlC: true });
  try {
    await app.waitUntilExit();
  } finally {
    controller.abort(new Error("the interactive session ended"));
    await live?.close().catch(() => {});
  }
  // A session that could not open is the error it was (a config error exits 2).
  await opening;
  if (live) process.stdout.write(`session ${live.session.id} · bosun why ${live.session.id.slice(0, 10)}\n`);
}

/** When `-s` names a session started in another (existing) directory, asks whether to switch back there. */
async function askCwd(
  options: SessionOptions,
  cwd: string,
): Promise<{ answer: "switch" | "stay"; directory: string } | undefined> {
  if (options.session === undefined || options.fork) return undefined;
  const store = SessionStore.open();
  let directory: string;
  try {
    directory = findSession(store, options.session).directory;
  } catch {
    return undefined; // The session's own opening reports an unknown one.
  } finally {
    store.close();
  }
  if (directory === cwd || !existsSync(directory)) return undefined;
  const clack = await import("@clack/prompts");
  const choice = await clack.select({
    message: `This session was started in ${directory}. Work there?`,
    options: [
      { value: "switch", label: `Switch to ${directory}` },
      { value: "stay", label: `Stay here, in ${cwd}` },
    ],
  });
  if (clack.isCancel(choice)) throw new UsageError("cancelled: no directory chosen for the session");
  return { answer: choice as "switch" | "stay", directory };
}
