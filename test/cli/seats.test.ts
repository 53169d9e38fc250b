import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SEATS } from "../../src/seats/catalog.js";
import { createWorkspace, type Workspace } from "../support/workspace.js";

describe("bosun seats", () => {
  let ws: Workspace;
  before(() => {
    ws = createWorkspace();
  });
  after(() => ws.cleanup());

  it("prints the catalog as JSON, generated from the code", async () => {
    const result = await ws.run(["seats", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const seats = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      seats.map((s) => s.id),
      SEATS.map((s) => s.id),
    );
    const target = seats.find((s) => s.id === "session.target");
    assert.deepEqual(target, {
      id: "session.target",
      question: "Which session does this run belong to: new, the latest here, a given one, or a fork?",
      holders: ["person", "code"],
      default:
        "a new session (code), unless the person names one to resume or fork, or asks to continue the latest one here (of this repository, from any of its folders)",
      fail: "closed",
      config: [],
    });
  });

  it("prints a table with id, question, holders, default, fail mode and config keys", async () => {
    const result = await ws.run(["seats"]);
    assert.equal(result.code, 0, result.stderr);
    const [header, ...rows] = result.stdout.trim().split("\n");
    assert.match(header ?? "", /^SEAT\s+QUESTION\s+HOLDERS\s+DEFAULT\s+FAIL\s+CONFIG$/);
    assert.equal(rows.length, SEATS.length);
    const load = rows.find((r) => r.startsWith("config.load "));
    assert.match(
      load ?? "",
      /config\.load\s+Which config layers.*\s+code\s+read every layer.*\s+closed\s+BOSUN_HOME, BOSUN_CONFIG/,
    );
  });
});
