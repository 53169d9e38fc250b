import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";

/** Background jobs the model can reach: shell_output reads what is new, shell_kill stops one; a resumed session is told which are gone. */

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  reply: { toolCalls: [{ id, name, arguments: args }] },
});

describe("background jobs: shell_output and shell_kill", () => {
  it("reads a running job's new output, then stops it; both judged as job:<id>", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, ...call("b1", "shell", { command: "echo tick; sleep 30", background: true }) },
        // A step in between: the job has printed by the time it is read.
        { match: { request: 2 }, ...call("w1", "shell", { command: "sleep 0.5" }) },
        { match: { request: 3 }, ...call("o1", "shell_output", { job: "job-1" }) },
        { match: { request: 4 }, ...call("k1", "shell_kill", { job: "job-1" }) },
        { match: { request: 5 }, ...call("o2", "shell_output", { job: "job-7" }) },
        { match: { request: 6 }, reply: { text: "Stopped it." } },
      ],
    });
    try {
      const result = await s.run(["run", "--allow", "shell:echo *", "--allow", "shell:sleep *", "watch it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(sentText(s, 2), /Started background job job-1/);
      assert.match(sentText(s, 4), /job-1 \(`echo tick; sleep 30`\): running\.\ntick/);
      assert.match(sentText(s, 5), /Stopping job-1/);
      assert.match(sentText(s, 6), /There is no background job job-7\. This run's jobs: job-1/);
      const judged = s.latest().decisions.filter((d) => d.seat === "call.permission");
      const forJobs = judged.filter((d) => ["o1", "k1"].includes(String(d.subject?.call)));
      assert.equal(forJobs.length, 2);
      for (const d of forJobs) assert.equal(d.answer, "allow");
      expectDecision(forJobs, "call.permission", "code", "allow");
    } finally {
      await s.close();
    }
  });

  it("a resumed session is told which jobs of an earlier run are gone, once each; new ids follow the old", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, ...call("b1", "shell", { command: "sleep 30", background: true }) },
        { match: { request: 2 }, reply: { text: "Started." } },
        { match: { request: 3 }, ...call("o1", "shell_output", { job: "job-1" }) },
        { match: { request: 4 }, ...call("b2", "shell", { command: "sleep 31", background: true }) },
        { match: { request: 5 }, reply: { text: "Started again." } },
        { match: { request: 6 }, reply: { text: "Fine." } },
      ],
    });
    try {
      const allow = ["--allow", "shell:sleep *"];
      assert.equal((await s.run(["run", ...allow, "start it"])).code, 0);
      const second = await s.run(["run", "-c", ...allow, "is it up?"]);
      assert.equal(second.code, 0, second.stderr);
      assert.match(
        sentText(s, 3),
        /Background jobs started in an earlier run of this session ended with that run: job-1 \(`sleep 30`\)/,
      );
      assert.match(
        sentText(s, 4),
        /job-1 \(`sleep 30`\) was started by an earlier run of this session and ended with it/,
      );
      assert.match(sentText(s, 5), /Started background job job-2\./);
      assert.equal((await s.run(["run", "-c", "and now?"])).code, 0);
      const third = sentText(s, 6);
      assert.match(third, /ended with that run: job-2 \(`sleep 31`\)\. Start/);
      assert.equal(third.match(/ended with that run: job-1/g)?.length, 1, "job-1's end is told once");
    } finally {
      await s.close();
    }
  });

  it("/jobs in the TUI lists this run's jobs and how they stand (tmux)", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, ...call("b1", "shell", { command: "sleep 30", background: true }) },
        { match: { request: 2 }, reply: { text: "It runs." } },
      ],
    });
    const term = startTmux({ cwd: s.ws.dir, env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false", CI: "true" } });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/jobs");
      await term.waitFor(/no background jobs in this run/);
      term.type("start it");
      await term.waitFor(/It runs\./);
      term.type("/jobs");
      await term.waitFor(/job-1 {2}running {2}sleep 30/);
      term.type("/exit");
    } finally {
      term.kill();
      await s.close();
    }
  });
});
