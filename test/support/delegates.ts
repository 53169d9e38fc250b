import { realpathSync } from "node:fs";
import { join } from "node:path";
import { recordDecision } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import type { Workspace } from "./workspace.js";

/**
 * Sessions as a delegating run leaves them, built through the real store in a workspace's
 * BOSUN_HOME: a parent, delegates with `parentId` and a `session.created` naming their agent,
 * the parent's task call and depth, their decisions and turn ends. The clock is a counter (a
 * second a write), so the order of creation and update is the order of the calls here.
 */
export interface Family {
  root: string;
  reviewer: string;
  explorer: string;
  builder: string;
  fork: string;
  /** A delegate of a session in another directory. */
  stray: string;
  strayParent: string;
  /** A delegate whose parent was deleted. */
  lost: string;
  elsewhere: string;
}

export function openStore(ws: Workspace, now: () => number): SessionStore {
  return SessionStore.open(join(ws.home, "data", "bosun.db"), now);
}

/** A clock a second a call, from a fixed start (so ages read "… ago", never in the future). */
export function counterClock(start = Date.now() - 3_600_000): () => number {
  let t = start;
  return () => {
    t += 1000;
    return t;
  };
}

const reason = (rule: string) => [{ rule, decisive: true }];

/** A turn of `text` with one decision for step 1 (of `call` when given) and its end, if `status`. */
export function turn(
  store: SessionStore,
  id: string,
  text: string,
  options: { call?: { id: string; tool: string; input: unknown }; status?: string; seatAnswer?: string } = {},
): void {
  store.append(id, "message.user", { text });
  if (options.call) {
    store.append(id, "message.assistant", {
      text: "",
      toolCalls: [{ id: options.call.id, name: options.call.tool, input: options.call.input }],
      finish: "tool_calls",
      model: "a/b",
      step: 1,
      status: "complete",
    });
  }
  recordDecision(store, id, {
    seat: "call.permission",
    holder: "config",
    answer: options.seatAnswer ?? "allow",
    reasons: reason(`rule for ${text}`),
    subject: { step: 1, ...(options.call ? { call: options.call.id } : {}) },
  });
  if (options.status) store.append(id, "turn.ended", { status: options.status, steps: 1 });
}

function setUp(store: SessionStore, id: string, what: string): void {
  recordDecision(store, id, { seat: "session.target", holder: "code", answer: { mode: "new" }, reasons: reason(what) });
}

export function delegate(
  store: SessionStore,
  parent: string,
  directory: string,
  d: { agent: string; description?: string; call: string; depth: number; title?: string },
): string {
  const { title, ...record } = d;
  return store.create({
    directory,
    parentId: parent,
    title: title ?? d.description ?? "",
    details: { delegate: record },
  }).id;
}

/**
 * root "build the feature" — delegates reviewer (call c1; its own delegate explorer, call k1,
 * depth 2) and builder (call c2, no description) — and a fork of root beside them; "stray", a
 * delegate here of a session in another directory; "lost", one whose parent was deleted.
 */
export function buildFamily(ws: Workspace): Family {
  const dir = realpathSync(ws.dir);
  const elsewhere = join(realpathSync(ws.home), "elsewhere");
  const store = openStore(ws, counterClock());
  try {
    const root = store.create({ directory: dir, title: "build the feature" }).id;
    setUp(store, root, "root set-up");
    turn(store, root, "build it", {
      call: { id: "c1", tool: "task", input: { agent: "reviewer", prompt: "look", description: "review the diff" } },
    });
    const reviewer = delegate(store, root, dir, {
      agent: "reviewer",
      description: "review the diff",
      call: "c1",
      depth: 1,
    });
    setUp(store, reviewer, "reviewer set-up");
    turn(store, reviewer, "look at the diff", {
      call: { id: "k1", tool: "task", input: { agent: "explorer", prompt: "find", description: "find the callers" } },
    });
    const explorer = delegate(store, reviewer, dir, {
      agent: "explorer",
      description: "find the callers",
      call: "k1",
      depth: 2,
    });
    turn(store, explorer, "find the callers of add", { status: "failed", seatAnswer: "deny" });
    store.append(reviewer, "turn.ended", { status: "done", steps: 1 });
    turn(store, root, "now build", { call: { id: "c2", tool: "task", input: { agent: "builder", prompt: "write" } } });
    const builder = delegate(store, root, dir, { agent: "builder", call: "c2", depth: 1, title: "write the fix" });
    // Cut off: its turn began and never ended, and nothing holds it.
    turn(store, builder, "write the fix");
    store.append(root, "turn.ended", { status: "done", steps: 2 });
    const fork = store.create({
      directory: dir,
      parentId: root,
      title: "build the feature (fork)",
      details: { forked_from: root, copied: 0 },
    }).id;
    const strayParent = store.create({ directory: elsewhere, title: "over there" }).id;
    const stray = delegate(store, strayParent, dir, { agent: "helper", description: "tidy up", call: "x1", depth: 1 });
    turn(store, stray, "tidy", { status: "limit" });
    const gone = store.create({ directory: dir, title: "gone" }).id;
    const lost = delegate(store, gone, dir, { agent: "helper", description: "orphaned", call: "y1", depth: 1 });
    store.delete(gone);
    return { root, reviewer, explorer, builder, fork, stray, strayParent, lost, elsewhere };
  } finally {
    store.close();
  }
}
