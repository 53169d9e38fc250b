import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const done = { reply: { text: "Done." } };
const DAY = 24 * 60 * 60 * 1000;

/** Every entry under `folder`, relative to it, folders included. */
function everything(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" }).sort();
}

describe("bosun run: temporary files are bosun's to clean", () => {
  it("leaves nothing in TMPDIR: long output saved under the data folder, sealed and masked commands, an edit", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: {
              toolCalls: [
                // Proven read-only: runs sealed. Over 1 MB of output: the whole of it is saved.
                { id: "sealed", name: "shell", arguments: { command: "seq 1 300000" } },
                { id: "read", name: "read", arguments: { path: "notes.md" } },
              ],
            },
          },
          {
            match: { request: 2 },
            reply: {
              toolCalls: [
                // Allowed (--auto): runs masked, the denied .env shown empty through bosun's stand-in file.
                {
                  id: "masked",
                  name: "shell",
                  arguments: { command: "grep -rh --exclude=seen.txt TOKEN . > seen.txt; seq 1 250000" },
                },
                { id: "edit", name: "edit", arguments: { path: "notes.md", old_string: "old", new_string: "new" } },
              ],
            },
          },
          done,
        ],
      },
      { global: { permission: { read: { "**/.env": "deny" } } } },
    );
    try {
      const tmp = join(s.ws.home, "..", "tmpdir");
      mkdirSync(tmp);
      s.ws.write(".env", "TOKEN=secret\n");
      s.ws.write("notes.md", "old\n");
      const result = await s.run(["run", "--auto", "go"], { env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp } });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(everything(tmp), [], "nothing of bosun's is left in TMPDIR");

      const { id, decisions } = s.latest();
      assert.equal(expectDecision(decisions, "exec.sandbox", "code", "read-only").subject?.call, "sealed");
      assert.equal(decisions.find((d) => d.seat === "exec.sandbox" && d.subject?.call === "masked")?.answer, "masked");
      assert.equal(readFileSync(join(s.ws.dir, "seen.txt"), "utf8"), "", "the masked .env read empty");
      assert.equal(readFileSync(join(s.ws.dir, "notes.md"), "utf8"), "new\n");

      // Both long outputs are whole in the session's own folder, owner-only.
      const folder = join(s.ws.home, "data", "overflow", id);
      assert.equal(statSync(folder).mode & 0o777, 0o700);
      assert.equal(statSync(join(s.ws.home, "data", "overflow")).mode & 0o777, 0o700);
      const shells = readdirSync(folder).filter((name) => name.startsWith("shell-"));
      assert.equal(shells.length, 2, readdirSync(folder).join(", "));
      const contents = shells
        .map((name) => readFileSync(join(folder, name), "utf8"))
        .sort((a, b) => a.length - b.length);
      const seq = (n: number) => `${Array.from({ length: n }, (_, i) => i + 1).join("\n")}\n`;
      assert.deepEqual(contents, [seq(250000), seq(300000)]);
      for (const name of readdirSync(folder)) assert.equal(statSync(join(folder, name)).mode & 0o777, 0o600, name);
    } finally {
      await s.close();
    }
  });

  it("deletes saved outputs older than storage.output_max_age_days at start-up, and records it (storage.cleanup)", async () => {
    const s = await startScenario({ rules: [done] }, { global: { storage: { output_max_age_days: 3 } } });
    try {
      const root = join(s.ws.home, "data", "overflow");
      const put = (session: string, name: string, bytes: number, days: number) => {
        mkdirSync(join(root, session), { recursive: true });
        writeFileSync(join(root, session, name), "x".repeat(bytes));
        const at = new Date(Date.now() - days * DAY);
        utimesSync(join(root, session, name), at, at);
      };
      put("ses_old", "shell-a.txt", 1000, 5);
      put("ses_old", "step1-c.txt", 200, 4);
      put("ses_recent", "shell-b.txt", 300, 4);
      put("ses_recent", "shell-c.txt", 400, 1);
      const result = await s.run(["run", "hi"]);
      assert.equal(result.code, 0, result.stderr);
      const cleanup = expectDecision(s.latest().decisions, "storage.cleanup", "config", { files: 3, bytes: 1500 });
      assert.match(cleanup.reasons[0]?.detail ?? "", /more than 3 days ago/);
      assert.equal(cleanup.reasons[0]?.key, "storage.output_max_age_days");
      assert.match(cleanup.reasons[0]?.source ?? "", /bosun\.json/);
      assert.ok((cleanup.reasons[0]?.detail ?? "").includes(root));
      assert.deepEqual(everything(root), ["ses_recent", join("ses_recent", "shell-c.txt")]);

      // Nothing old left: the next start records nothing.
      const again = await s.run(["run", "hi"]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(s.latest().decisions.filter((d) => d.seat === "storage.cleanup").length, 0);
    } finally {
      await s.close();
    }
  });
});
