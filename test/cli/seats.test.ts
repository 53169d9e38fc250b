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

  for (const width of [80, 160]) {
    it(`prints a table of id, holders, fail mode and default within COLUMNS=${width}`, async () => {
      const result = await ws.run(["seats"], { env: { COLUMNS: String(width) } });
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.trimEnd().split("\n");
      for (const line of lines) assert.ok(line.length <= width, `${line.length} > ${width}: ${line}`);
      assert.match(lines[0] ?? "", width === 160 ? /^SEAT +HOLDERS +FAIL +DEFAULT$/ : /^SEAT +HOLDERS +FAIL$/);
      const rows = lines.filter((l) => /^[a-z]+\.[a-z_]+ /.test(l));
      assert.deepEqual(
        rows.map((r) => r.split(" ")[0]),
        SEATS.map((s) => s.id),
      );
      const load = lines.findIndex((l) => l.startsWith("config.load "));
      // The default shortened at a word, on the row when there is room, else on the line below.
      const shown = width === 160 ? (lines[load] ?? "").replace(/^config\.load +code +closed +/, "") : lines[load + 1];
      assert.match(lines[load] ?? "", /^config\.load +code +closed\b/);
      const text = (shown ?? "").trim().replace(/…$/, "");
      const full = SEATS.find((s) => s.id === "config.load")?.default ?? "";
      assert.ok(full.startsWith(text) && text.length > 40, shown);
      assert.equal(full[text.length], " ", "cut between words");
      assert.match(lines.at(-1) ?? "", /bosun seats <seat> shows one seat in full; bosun seats --long shows them all/);
    });
  }

  it("shows one seat in full with `seats <id>`, and every seat so with --long", async () => {
    const one = await ws.run(["seats", "model.fallback"], { env: { COLUMNS: "80" } });
    assert.equal(one.code, 0, one.stderr);
    const seat = SEATS.find((s) => s.id === "model.fallback");
    const lines = one.stdout.trimEnd().split("\n");
    assert.equal(lines[0], "model.fallback");
    assert.match(lines[1] ?? "", /^ {2}question {2}After a model fails/);
    for (const line of lines) assert.ok(line.length <= 80, line);
    // Every word of the default is there, in order, wrapped under its label.
    const from = lines.findIndex((l) => l.startsWith("  default "));
    const to = lines.findIndex((l) => l.startsWith("  fail "));
    assert.equal(
      lines
        .slice(from, to)
        .map((l) => l.slice(12))
        .join(" "),
      seat?.default,
    );
    assert.equal(lines.at(-1), `  config    ${seat?.config.join(", ")}`);
    const json = JSON.parse((await ws.run(["seats", "model.fallback", "--json"])).stdout) as { id: string };
    assert.equal(json.id, "model.fallback");

    const long = await ws.run(["seats", "--long"], { env: { COLUMNS: "160" } });
    assert.equal(long.code, 0, long.stderr);
    const blocks = long.stdout.trimEnd().split("\n\n");
    assert.deepEqual(
      blocks.map((b) => b.split("\n")[0]),
      SEATS.map((s) => s.id),
    );
    for (const line of long.stdout.split("\n")) assert.ok(line.length <= 160, line);
    assert.equal(long.stdout.match(/^ {2}fail {6}(closed|soft|open)$/gm)?.length, SEATS.length);
  });

  it("refuses an unknown seat with exit 2, naming the close ones or else listing them all", async () => {
    const typo = await ws.run(["seats", "call.permision"]);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^bosun: no seat "call\.permision"; did you mean: call\.permission\b/);
    const unknown = await ws.run(["seats", "zzzz"], { env: { COLUMNS: "60" } });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^bosun: no seat "zzzz"; the seats are:\n {2}config\.\* +load\n/);
    for (const line of unknown.stderr.split("\n")) assert.ok(line.length <= 60, line);
  });
});
