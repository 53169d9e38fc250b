import { agentCatalog, anyAgentFiles } from "../agents/catalog.js";
import type { decideAgent } from "../agents/select.js";
import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import type { ResolvedModel } from "../model/resolve.js";
import { selectSessionModel } from "../model/session-model.js";
import { recordDecision } from "../seats/record.js";
import { belongsHere } from "../session/home.js";
import { sqliteJournal } from "../session/journal.js";
import { openSession } from "../session/open.js";
import { recoverInterruptedCalls } from "../session/recover.js";
import { acquireLease, type Lease } from "../store/lease.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import type { Seen } from "../tools/file-tracker.js";
import type { Face } from "../util/face.js";
import type { RunAuthority } from "./authority.js";
import type { SessionOptions } from "./options.js";

/**
 * Everything decided before the first step — session, its lease, recovery, agent, model — in
 * one transaction: a model or agent that cannot be used leaves no empty session behind, and a
 * session another live run holds is refused before anything is written to it.
 */
export function setUp(
  store: SessionStore,
  config: LoadedConfig,
  cwd: string,
  input: {
    options: SessionOptions;
    firstMessage?: string;
    onLeaseLost: () => void;
    cwdChoice?: "switch" | "stay";
    cwdUnasked?: string;
    face?: Face;
    chosenThrough?: { rule: string; source: string };
    warn: (text: string) => void;
  },
  agentChoice: ReturnType<typeof decideAgent>,
  prepared: RunAuthority,
): { session: SessionInfo; lease: Lease; model: ResolvedModel } {
  const { options } = input;
  return store.atomically(() => {
    const session = openSession(store, {
      directory: cwd,
      flags: {
        ...(options.session !== undefined ? { session: options.session } : {}),
        ...(options.continue ? { continue: true } : {}),
        ...(options.fork ? { fork: true } : {}),
      },
      config,
      // A fork without --title is named after its original ("… (fork)", as `bosun sessions fork`
      // names it); a new session, until its title is decided, after its first line.
      ...(options.title !== undefined || !options.fork
        ? { title: options.title ?? input.firstMessage?.split("\n")[0]?.slice(0, 60) ?? "" }
        : {}),
    });
    const lease = acquireLease(store, session.id, { onLost: input.onLeaseLost });
    try {
      recoverInterruptedCalls(store, session.id, lease);
      // A session of this repository, from any of its folders, is at home here.
      if (!belongsHere(session.directory, cwd) || input.cwdChoice)
        recordDecision(store, session.id, decideCwd(session, cwd, input));
      const { agent, ...agentDecision } = agentChoice;
      recordDecision(store, session.id, {
        seat: "agent.select",
        ...agentDecision,
        ...(options.command?.agent ? { subject: { command: options.command.name } } : {}),
      });
      // Which agents there are and which files shadow which: only when an agent file was read.
      if (anyAgentFiles(config)) recordDecision(store, session.id, agentCatalog(config).decision);
      for (const skipped of config.agentFiles.skippedFiles) {
        input.warn(`not using agent file ${skipped.file}: ${skipped.reason}`);
      }
      for (const decision of prepared.setupDecisions) recordDecision(store, session.id, decision);
      const { command } = options;
      const model = selectSessionModel(store, session, {
        config,
        ...(input.face ? { face: input.face } : {}),
        ...(input.chosenThrough ? { through: input.chosenThrough } : {}),
        agent: { name: agent.name, ...(agent.model ? { model: agent.model } : {}) },
        ...(command?.model
          ? {
              command: {
                name: command.name,
                file: command.file,
                model: command.model,
                ...(command.kind ? { kind: command.kind } : {}),
              },
            }
          : {}),
      });
      if (model.warning) input.warn(model.warning);
      return { session, lease, model };
    } catch (error) {
      // Stops its heartbeat; the row itself goes with the rolled-back transaction.
      lease.release();
      throw error;
    }
  });
}

/**
 * Seat `session.cwd`: the session was started in another directory. The person's answer when
 * one was asked (switch: bosun now runs there); else it stays here, with a warning on stderr.
 */
function decideCwd(
  session: SessionInfo,
  cwd: string,
  how: { cwdChoice?: "switch" | "stay"; cwdUnasked?: string; warn: (text: string) => void },
): Decision {
  const choice = how.cwdChoice;
  const reason = {
    rule: "started elsewhere",
    detail: `the session was started in ${session.directory}; this run is in ${cwd}`,
  };
  if (choice) {
    return {
      seat: "session.cwd",
      holder: "person",
      answer: choice,
      reasons: [
        reason,
        { rule: "the person chose", detail: choice === "switch" ? "switch back" : "stay here", decisive: true },
      ],
    };
  }
  how.warn(`session ${session.id.slice(0, 10)} was started in ${session.directory}; working here, in ${cwd}`);
  return {
    seat: "session.cwd",
    holder: "code",
    answer: "stay",
    reasons: [
      { rule: "started elsewhere", detail: `the session was started in ${session.directory}; this run is in ${cwd}` },
      {
        rule: "nobody to ask",
        detail: how.cwdUnasked ?? "not interactive: stays in the current directory, warned on stderr",
        decisive: true,
      },
    ],
  };
}

/** What the session has read before, from its `file.seen` events: edit's staleness check survives a resume. */
export function seenFiles(store: SessionStore, sessionId: string): Array<[string, Seen]> {
  const latest = new Map<string, Seen>();
  for (const { data } of sqliteJournal(store, sessionId).events("file.seen")) {
    if ("gone" in data) latest.delete(data.path);
    else {
      const { path, ...seen } = data;
      latest.set(path, seen);
    }
  }
  return [...latest];
}
