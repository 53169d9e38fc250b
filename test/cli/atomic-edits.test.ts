import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { type Scenario, startScenario } from "../support/scenario.js";
import { mountSmallDisk } from "../support/small-disk.js";
import { BOSUN_BIN } from "../support/workspace.js";

const done = { reply: { text: "Done." } };

/** Bosun's temporary files in `folder`, by their naming (safe-write.ts). */
function temps(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.endsWith(".bosun-tmp"));
}

/** The results the tools gave, by call id. */
function results(s: Scenario): Map<string, { output: string; isError?: boolean }> {
  const found = new Map<string, { output: string; isError?: boolean }>();
  for (const event of s.latest().events) {
    if (event.type !== "call.finished" && event.type !== "call.result") continue;
    const data = event.data as { id: string; output: string; isError?: boolean };
    found.set(data.id, data);
  }
  return found;
}

describe("bosun run: edits are atomic", () => {
  it("write and edit keep the replaced file's mode: a 0755 script stays 0755, a 0600 file stays 0600", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "go" },
          reply: {
            toolCalls: [
              { id: "r1", name: "read", arguments: { path: "run.sh" } },
              { id: "r2", name: "read", arguments: { path: "private.txt" } },
            ],
          },
        },
        {
          match: { anyMessage: "private one" },
          reply: {
            toolCalls: [
              { id: "e1", name: "edit", arguments: { path: "run.sh", old_string: "echo old", new_string: "echo new" } },
              { id: "w1", name: "write", arguments: { path: "private.txt", content: "private two\n" } },
            ],
          },
          times: 1,
        },
        done,
      ],
    });
    try {
      chmodSync(s.ws.write("run.sh", "#!/bin/sh\necho old\n"), 0o755);
      chmodSync(s.ws.write("private.txt", "private one\n"), 0o600);
      const result = await s.run(["run", "--auto", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "run.sh"), "utf8"), "#!/bin/sh\necho new\n");
      assert.equal(readFileSync(join(s.ws.dir, "private.txt"), "utf8"), "private two\n");
      assert.equal(statSync(join(s.ws.dir, "run.sh")).mode & 0o777, 0o755);
      assert.equal(statSync(join(s.ws.dir, "private.txt")).mode & 0o777, 0o600);
      assert.deepEqual(temps(s.ws.dir), [], "no temporary file is left after a normal write");
    } finally {
      await s.close();
    }
  });

  it("a link's name is written through to its resolved target, atomically there; an approval of the workspace's files does not reach it", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "inside" },
          reply: { toolCalls: [{ id: "r1", name: "read", arguments: { path: "run.sh" } }] },
        },
        {
          match: { lastMessage: "echo old" },
          reply: {
            toolCalls: [
              { id: "e1", name: "edit", arguments: { path: "run.sh", old_string: "echo old", new_string: "echo new" } },
            ],
          },
        },
        {
          match: { lastMessage: "outside" },
          reply: {
            toolCalls: [
              { id: "r2", name: "read", arguments: { path: "notes.txt" } },
              { id: "w2", name: "write", arguments: { path: "notes.txt", content: "overwritten\n" } },
            ],
          },
        },
        done,
      ],
    });
    try {
      const real = s.ws.write("bin/real.sh", "#!/bin/sh\necho old\n");
      chmodSync(real, 0o755);
      symlinkSync("bin/real.sh", join(s.ws.dir, "run.sh"));
      const inside = await s.run(["run", "--auto", "inside"]);
      assert.equal(inside.code, 0, inside.stderr);
      assert.equal(readFileSync(real, "utf8"), "#!/bin/sh\necho new\n");
      assert.ok(lstatSync(join(s.ws.dir, "run.sh")).isSymbolicLink(), "the link stays a link");
      assert.equal(readlinkSync(join(s.ws.dir, "run.sh")), "bin/real.sh");
      assert.equal(statSync(real).mode & 0o777, 0o755);
      assert.deepEqual([...temps(s.ws.dir), ...temps(dirname(real))], []);

      // A link out of the workspace: the target is what is judged. Allowing edits of the
      // workspace's text files (and going outside, and reading there) does not allow writing
      // where a link among them leads.
      const outside = join(realpathSync(dirname(s.ws.dir)), "outside");
      mkdirSync(outside);
      writeFileSync(join(outside, "secret.txt"), "untouched\n");
      symlinkSync(join(outside, "secret.txt"), join(s.ws.dir, "notes.txt"));
      const out = await s.run([
        "run",
        "--allow",
        "edit:*.txt",
        "--allow",
        `external_directory:${outside}/**`,
        "--allow",
        `read:${outside}/**`,
        "outside",
      ]);
      assert.equal(readFileSync(join(outside, "secret.txt"), "utf8"), "untouched\n");
      const write = results(s).get("w2");
      assert.ok(write?.isError, JSON.stringify(write));
      assert.match(write?.output ?? "", /Denied/);
      assert.notEqual(out.code, null);
    } finally {
      await s.close();
    }
  });

  it("a SIGKILL at any moment of a 50 MB edit leaves the old content or the new, byte for byte; a killed run's temporary file goes with the next write", async () => {
    const LINES = 500;
    const line = (i: number) => `line ${String(i).padStart(7, "0")} ${"x".repeat(99_984)}\n`;
    const old = `${Array.from({ length: LINES - 1 }, (_, i) => line(i + 1)).join("")}MARKER-OLD\n`;
    const edited = old.replace("MARKER-OLD", "MARKER-NEW");
    const hash = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
    const [oldHash, newHash] = [hash(old), hash(edited)];
    assert.ok(old.length > 49_000_000);
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "go" },
          reply: { toolCalls: [{ id: "r", name: "read", arguments: { path: "big.txt", limit: 1 } }] },
        },
        {
          match: { lastMessage: "line 0000001" },
          reply: {
            toolCalls: [
              {
                id: "e",
                name: "edit",
                arguments: { path: "big.txt", old_string: "MARKER-OLD", new_string: "MARKER-NEW" },
              },
            ],
          },
        },
        done,
      ],
    });
    const file = join(s.ws.dir, "big.txt");
    // Killed or not, a run leaves nothing in TMPDIR.
    const tmp = join(s.ws.home, "..", "tmpdir");
    mkdirSync(tmp);
    const isTemp = (name: string | null) => name !== null && /^\.big\.txt\..*\.bosun-tmp$/.test(name);

    /**
     * One edit run, killed (its whole process group, SIGKILL) `killAfterMs` after its temporary file
     * appears, or left to finish when undefined. Says when the temporary file appeared and when
     * big.txt was replaced, in ms after that.
     */
    const attempt = async (killAfterMs?: number) => {
      let tempAt: number | undefined;
      let renamedAfter: number | undefined;
      let child: ChildProcess | undefined;
      const started = performance.now();
      const watcher = watch(s.ws.dir, (_event, name) => {
        const now = performance.now();
        if (tempAt === undefined && isTemp(name)) {
          tempAt = now;
          if (killAfterMs !== undefined) {
            setTimeout(() => {
              try {
                process.kill(-(child?.pid ?? 0), "SIGKILL");
              } catch {
                // Already gone: it finished first.
              }
            }, killAfterMs);
          }
        } else if (tempAt !== undefined && renamedAfter === undefined && name === "big.txt") {
          renamedAfter = now - tempAt;
        }
      });
      try {
        child = spawn(process.execPath, [BOSUN_BIN, "run", "--auto", "go"], {
          cwd: s.ws.dir,
          env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false", TMPDIR: tmp },
          stdio: "ignore",
          detached: true,
        });
        const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          child?.once("exit", (code, signal) => resolve({ code, signal })),
        );
        const tempAfterStart = tempAt === undefined ? undefined : tempAt - started;
        return {
          ...ended,
          sawTemp: tempAt !== undefined,
          renamedAfter,
          tempAfterStart,
          ms: performance.now() - started,
        };
      } finally {
        watcher.close();
      }
    };

    try {
      writeFileSync(file, old);
      // A run left alone: how long the temporary file lives before the rename, to spread the kills over.
      const calm = await attempt();
      assert.equal(calm.code, 0);
      assert.equal(hash(readFileSync(file)), newHash);
      assert.ok(calm.sawTemp && calm.renamedAfter !== undefined, JSON.stringify(calm));
      const window = calm.renamedAfter ?? 0;

      const TRIES = 20;
      const outcomes: string[] = [];
      let leftTemp = 0;
      for (let i = 0; i < TRIES; i++) {
        writeFileSync(file, old);
        // From the temporary file's first moment to past the rename.
        const delay = (i / (TRIES - 1)) * window * 1.5;
        const run = await attempt(delay);
        const now = hash(readFileSync(file));
        assert.ok(now === oldHash || now === newHash, `try ${i} (kill ${delay.toFixed(1)} ms in): a torn file`);
        outcomes.push(`${delay.toFixed(0)}ms:${run.signal ?? run.code}:${now === oldHash ? "old" : "new"}`);
        if (temps(s.ws.dir).length > 0) leftTemp++;
      }
      process.stdout.write(
        `# 50 MB edit: run ${calm.ms.toFixed(0)} ms, temporary file at ${calm.tempAfterStart?.toFixed(0)} ms, renamed ${window.toFixed(1)} ms later; kills: ${outcomes.join(" ")}\n`,
      );
      assert.ok(leftTemp > 0, `no kill landed mid-write: ${outcomes.join(" ")}`);
      assert.ok(
        outcomes.some((o) => o.endsWith(":SIGKILL:old")),
        `no kill before the rename: ${outcomes.join(" ")}`,
      );

      // What killed runs left is harmless (a hidden name bosun never reads) and goes with the next write.
      writeFileSync(file, old);
      const after = await attempt();
      assert.equal(after.code, 0);
      assert.equal(hash(readFileSync(file)), newHash);
      assert.deepEqual(temps(s.ws.dir), []);
      assert.deepEqual(readdirSync(tmp), [], "nothing of bosun's in TMPDIR");
    } finally {
      await s.close();
    }
  });

  it("a write or edit that does not fit on the disk leaves the old file whole, says so, and the run goes on (ENOSPC)", async (t) => {
    const disk = mountSmallDisk(2 * 1024 * 1024);
    if ("unavailable" in disk) {
      process.stdout.write(`# skipped: ${disk.unavailable}\n`);
      t.skip(disk.unavailable);
      return;
    }
    const big = `${"a line that fills the small disk\n".repeat(36_000)}MARKER-OLD\n`; // about 1.2 MB
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "go" },
          reply: { toolCalls: [{ id: "r", name: "read", arguments: { path: "big.txt", limit: 1 } }] },
        },
        {
          match: { lastMessage: "a line that fills" },
          reply: {
            toolCalls: [
              {
                id: "e",
                name: "edit",
                arguments: { path: "big.txt", old_string: "MARKER-OLD", new_string: "MARKER-NEW" },
              },
            ],
          },
        },
        {
          match: { lastMessage: "no space left" },
          reply: {
            toolCalls: [
              { id: "w", name: "write", arguments: { path: "huge.txt", content: "y".repeat(1_000_000) } },
              { id: "small", name: "write", arguments: { path: "small.txt", content: "still going\n" } },
            ],
          },
          times: 1,
        },
        done,
      ],
    });
    // A megabyte of content in one call is some 250,000 tokens: a model with the window for it.
    const base = s.server.configFor("openai-compatible");
    s.setUserConfig({
      provider: {
        scripted: { ...base.provider.scripted, models: { "test-model": { context: 2_000_000, output: 8_000 } } },
      },
    });
    try {
      const repo = join(disk.path, "repo");
      mkdirSync(repo);
      spawnSync("git", ["init", "-q", repo], { stdio: "ignore" });
      writeFileSync(join(repo, "big.txt"), big);
      const result = await s.ws.run(["run", "--auto", "go"], { cwd: repo, env: { AI_SDK_LOG_WARNINGS: "false" } });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(join(repo, "big.txt"), "utf8"), big, "the old content, byte for byte");
      const found = results(s);
      assert.equal(found.get("e")?.isError, true);
      assert.equal(found.get("e")?.output, "Cannot write big.txt: no space left on the device; big.txt is as it was.");
      assert.equal(found.get("w")?.output, "Cannot write huge.txt: no space left on the device; nothing was created.");
      assert.equal(readFileSync(join(repo, "small.txt"), "utf8"), "still going\n", "the run went on");
      assert.deepEqual(temps(repo), [], "the temporary files that did not fit are gone");
      assert.deepEqual(readdirSync(repo).sort(), [".git", "big.txt", "small.txt"]);
    } finally {
      await s.close();
      disk.unmount();
    }
  });
});
