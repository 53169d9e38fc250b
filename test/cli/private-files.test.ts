import assert from "node:assert/strict";
import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startScenario, waitFor } from "../support/scenario.js";

/**
 * Private by default, driven through the real binary under a umask of 022 (files 0644 unless
 * bosun says otherwise): the data folder, the database and its -wal and -shm, an export written
 * with -o and saved output are the owner's only. Run `npm run build` first.
 */

const mode = (path: string) => statSync(path).mode & 0o777;
const octal = (path: string) => mode(path).toString(8);

describe("bosun's files are readable by their owner only", () => {
  let umask: number;
  before(() => {
    // Inherited by every bosun spawned here: the common umask, under which SQLite would make 0644 files.
    umask = process.umask(0o022);
  });
  after(() => {
    process.umask(umask);
  });

  it("a run, its database with -wal and -shm while it runs, saved output and an export: 0600 in 0700 folders", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              {
                id: "long",
                name: "shell",
                // Says it runs, waits (10 s at most) for the test to have looked, then prints > 1 MB: saved output.
                arguments: {
                  command: "touch started; for i in $(seq 100); do [ -f go ] && break; sleep 0.1; done; seq 1 300000",
                },
              },
            ],
          },
        },
        { reply: { text: "Done." } },
      ],
    });
    try {
      const data = join(s.ws.home, "data");
      const db = join(data, "bosun.db");
      const running = s.spawn(["run", "--auto", "go"]);
      // While the run holds the database open its -wal and -shm exist: as SQLite made them.
      await waitFor(() => (existsSync(join(s.ws.dir, "started")) ? true : undefined));
      const live = Object.fromEntries([data, db, `${db}-wal`, `${db}-shm`].map((path) => [path, octal(path)]));
      writeFileSync(join(s.ws.dir, "go"), "");
      const result = await running.result;
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(live, { [data]: "700", [db]: "600", [`${db}-wal`]: "600", [`${db}-shm`]: "600" });

      // Saved output (already owner-only): the session's folder and its files.
      const overflow = join(data, "overflow");
      const [session] = readdirSync(overflow);
      assert.ok(session, "the long output was saved");
      const folder = join(overflow, session);
      const saved = readdirSync(folder);
      assert.ok(
        saved.some((name) => name.startsWith("shell-")),
        saved.join(", "),
      );
      assert.deepEqual([overflow, folder, ...saved.map((name) => join(folder, name))].map(octal), [
        "700",
        "700",
        ...saved.map(() => "600"),
      ]);

      // An export written with -o.
      const file = join(s.ws.home, "export.json");
      const exported = await s.run(["sessions", "export", session, "-o", file]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(octal(file), "600");
      // A file the person already had keeps the mode they gave it.
      chmodSync(file, 0o640);
      assert.equal((await s.run(["sessions", "export", session, "-o", file])).code, 0);
      assert.equal(octal(file), "640");
    } finally {
      await s.close();
    }
  });

  it("a home an older bosun made wide is narrowed by a writing command, never by a reading one", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const data = join(s.ws.home, "data");
      const db = join(data, "bosun.db");
      assert.equal((await s.run(["sessions", "new"])).code, 0);
      chmodSync(data, 0o755);
      chmodSync(db, 0o644);

      // Reading commands change nothing on disk.
      for (const args of [["sessions"], ["sessions", "--all", "--json"]]) {
        const listed = await s.run(args);
        assert.equal(listed.code, 0, listed.stderr);
      }
      assert.deepEqual([octal(data), octal(db)], ["755", "644"]);

      const run = await s.run(["run", "hi"]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual([octal(data), octal(db)], ["700", "600"]);
    } finally {
      await s.close();
    }
  });
});
