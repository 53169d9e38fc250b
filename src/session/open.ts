import { shownValue } from "../config/display.js";
import type { LoadedConfig } from "../config/load.js";
import type { Answer, Reason } from "../contracts/decisions.js";
import { UsageError } from "../errors.js";
import { recordDecision } from "../seats/record.js";
import { findSession } from "../store/lookup.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import { EV } from "./events.js";
import { homesOf, sessionHome } from "./home.js";
import { sqliteJournal } from "./journal.js";
import { checkTargetFlags, decideSessionTarget, type TargetAnswer, type TargetFlags } from "./target.js";

export interface OpenOptions {
  /** Where the run is (its working directory); a new session is recorded with its repository's root (home.ts). */
  directory: string;
  flags: TargetFlags;
  config: LoadedConfig;
  /** Title for a new or forked session. */
  title?: string;
}

/**
 * Resolves, creates or forks the session a run belongs to, then records how (`session.target`)
 * and which config it runs under (`config.load`). Unknown ids and an empty --continue are
 * errors: bosun never falls back to a silent new session. `--continue` takes the latest session
 * of this repository (from any of its folders) that the person worked in: a fork counts, a
 * delegate's session (a child that is no fork) does not.
 */
export function openSession(store: SessionStore, options: OpenOptions): SessionInfo {
  const { flags } = options;
  checkTargetFlags(flags);
  const directory = sessionHome(options.directory);
  const named = flags.session !== undefined ? findSession(store, flags.session) : undefined;
  const latestHere = flags.continue ? latestSessionHere(store, options.directory) : undefined;
  if (flags.continue && !latestHere) {
    throw new UsageError(`no session to continue in ${directory}; run without --continue to start one`);
  }
  const decision = decideSessionTarget(flags, {
    directory,
    ...(named ? { named } : {}),
    ...(latestHere ? { latestHere } : {}),
  });
  // The session and the decisions that explain it land together, or not at all.
  return store.atomically(() => {
    const session = apply(store, decision.answer, { ...options, directory });
    recordDecision(store, session.id, { seat: "session.target", ...decision });
    recordDecision(store, session.id, { seat: "config.load", ...describeConfigLoad(options.config) });
    // Read back: recording moved its `updated` time.
    return store.get(session.id) as SessionInfo;
  });
}

function apply(store: SessionStore, target: TargetAnswer, options: OpenOptions): SessionInfo {
  switch (target.mode) {
    case "new":
      return store.create({ directory: options.directory, ...(options.title ? { title: options.title } : {}) });
    case "continue":
    case "resume":
      return store.get(target.session) as SessionInfo;
    case "fork":
      return forkSession(store, target.from, options.directory, options.title);
  }
}

/**
 * The latest session of the repository `cwd` is in (from any of its folders) that the person
 * worked in and that has a message: what `--continue` takes and what `bosun why` shows without
 * a session named. An interactive session left before its first message is a session too (it
 * opens at once), and `bosun` then Ctrl-C must not make `-c` continue that empty one instead of
 * the conversation before it. Only when no session here has a message is the latest empty one taken.
 */
export function latestSessionHere(store: SessionStore, cwd: string): SessionInfo | undefined {
  let latestEmpty: SessionInfo | undefined;
  for (const session of store.list(homesOf(cwd))) {
    if (!isPersons(store, session)) continue;
    if (store.latestSeq(session.id, EV.user) !== undefined) return session;
    latestEmpty ??= session;
  }
  return latestEmpty;
}

/** Whether the person works in this session: a top-level one, or a fork (whose parent is what it copies). */
function isPersons(store: SessionStore, session: SessionInfo): boolean {
  if (session.parentId === null) return true;
  const created = sqliteJournal(store, session.id).events("session.created")[0]?.data;
  return created?.forked_from === session.parentId;
}

/**
 * A fork is a new session whose log starts with a copy of the original's events, so its
 * history (and ledger) reads the same up to the fork. The original is not touched. Its own
 * creation and title events are not copied: the fork has its own. Copies keep the time they
 * first happened, and `session.created` says how many follow it (`copied`), so `bosun why` can
 * tell inherited decisions from the fork's own. Its parent is the original, so listings show
 * where it came from (a delegate's session has a parent too, but no `forked_from`).
 */
export function forkSession(store: SessionStore, fromId: string, directory: string, title?: string): SessionInfo {
  const from = store.get(fromId);
  if (!from) throw new UsageError(`no session ${fromId} to fork`);
  const original = store.events(fromId);
  const copied = original.filter((e) => e.type !== "session.created" && e.type !== "session.title");
  return store.atomically(() => {
    const fork = store.create({
      directory,
      parentId: from.id,
      title: title ?? (from.title ? `${from.title} (fork)` : ""),
      details: { forked_from: from.id, forked_at_seq: original.at(-1)?.seq ?? 1, copied: copied.length },
    });
    store.appendCopies(fork.id, copied);
    return store.get(fork.id) as SessionInfo;
  });
}

/** Seat `config.load`: code reads every layer that exists; the answer lists what was read. */
export function describeConfigLoad(config: LoadedConfig): Answer<string[]> {
  const absent = config.layers.filter((l) => l.status === "absent").map((l) => l.source);
  const summary: Reason = {
    rule: "every layer that exists is read, lowest first",
    detail: `${config.layers.length - absent.length} read${absent.length > 0 ? `; absent: ${absent.join(", ")}` : ""}`,
    decisive: true,
  };
  const reasons: Reason[] = config.layers.map((layer) => ({
    rule: `${layer.layer} layer`,
    detail: layer.status,
    source: layer.source,
  }));
  for (const ref of config.references) {
    // As written, through the same filter as `bosun config`: the ledger never holds a secret.
    const written = shownValue(ref.key, undefined, {
      layer: "default",
      source: ref.source,
      key: ref.key,
      raw: ref.raw,
    });
    reasons.push({
      rule: "reference resolved",
      detail: typeof written === "string" ? written : JSON.stringify(written),
      source: ref.source,
      key: ref.key,
      ...(ref.line ? { line: ref.line } : {}),
    });
  }
  for (const ref of config.unresolved) {
    reasons.push({
      rule: "unresolved reference",
      detail: `${ref.reason}; ${config.origins.get(ref.key)?.layer === "default" ? "its default applies" : "key left unset"}`,
      source: ref.source,
      key: ref.key,
    });
  }
  const read = config.layers.filter((l) => l.status === "read").map((l) => `${l.layer}:${l.source}`);
  return { holder: "code", answer: read, reasons: [summary, ...reasons] };
}
