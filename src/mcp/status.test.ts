import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LoadedConfig } from "../config/load.js";
import { leftOutServers } from "./left-out.js";
import { serverStatuses } from "./status.js";

const config = (mcp: Record<string, unknown>) => ({ config: { mcp } }) as unknown as LoadedConfig;

describe("/mcp's statuses of a repository's servers left out", () => {
  it("a server seat project.command did not let run needs trust, with why and how to let it run", () => {
    const [repo] = serverStatuses(config({ repo: { command: "repo" } }), new Set(["mcp.repo"]), [], new Map(), {
      judged: new Map([["mcp.repo", "not run: nobody approved it"]]),
    });
    assert.equal(repo?.state, "needs trust");
    assert.equal(repo?.error, "not run: nobody approved it (seat project.command)");
    assert.match(repo?.approve ?? "", /\/new asks again/);
  });

  it("a server an untrusted config left out whole is listed after the config's, with what it would read", () => {
    const listed = config({ mine: { command: "mine" }, refs: { command: "node", args: ["{env:HOME}"] } });
    const used = config({ mine: { command: "mine" } });
    const leftOut = leftOutServers(listed, used, ["mcp refs args reads {env:HOME}", "allow shell:*"]);
    assert.deepEqual([...leftOut.keys()], ["refs"]);
    const statuses = serverStatuses(used, new Set(), [], new Map(), { leftOut });
    assert.deepEqual(
      statuses.map((s) => [s.name, s.state]),
      [
        ["mine", "skipped"],
        ["refs", "needs trust"],
      ],
    );
    assert.match(
      statuses[1]?.error ?? "",
      /^its args reads \{env:HOME\}, and the repository's config is not trusted \(seat project\.trust\)$/,
    );
    assert.match(statuses[1]?.approve ?? "", /--trust-project/);
  });
});
