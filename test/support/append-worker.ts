/**
 * A separate writer process for the store's concurrency tests:
 *
 *   node --import tsx test/support/append-worker.ts <dbPath> <sessionId> <count> <tag> [createEvery]
 *
 * Opens the store, prints `ready`, waits for a line on stdin (so every worker starts writing at
 * the same moment), then appends `count` events of type `worker.tick` with data `{ tag, i }`
 * (i = 0..count-1, in order) to `sessionId`. Every `createEvery` appends (0 = never) it also
 * creates a session titled `<tag>-<n>`. Prints one JSON line with what it did and exits 0;
 * any error is printed to stderr and exits 1.
 */
import { createInterface } from "node:readline";
import { SessionStore } from "../../src/store/session-store.js";

const [dbPath, sessionId, countText, tag, createEveryText = "0"] = process.argv.slice(2);
if (!dbPath || !sessionId || !countText || !tag) {
  process.stderr.write("usage: append-worker <dbPath> <sessionId> <count> <tag> [createEvery]\n");
  process.exit(64);
}
const count = Number(countText);
const createEvery = Number(createEveryText);

const store = SessionStore.open(dbPath);
process.stdout.write("ready\n");

const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once("line", () => resolve()));
lines.close();

const started = Date.now();
const seqs: number[] = [];
const created: string[] = [];
try {
  for (let i = 0; i < count; i++) {
    seqs.push(store.append(sessionId, "worker.tick", { tag, i }).seq);
    if (createEvery > 0 && (i + 1) % createEvery === 0) {
      created.push(store.create({ directory: `/worker/${tag}`, title: `${tag}-${created.length}` }).id);
    }
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  store.close();
}
process.stdout.write(`${JSON.stringify({ tag, seqs, created, started, finished: Date.now() })}\n`);
