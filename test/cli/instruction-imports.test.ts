import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";

describe("context: @imports in instruction files (bosun run)", () => {
  it("CLAUDE.md's @imports reach the model with depth 5 and a cycle cut; a link out of the repository and a protected file are refused", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const outside = join(s.ws.home, "..", "outside-imports");
      mkdirSync(outside, { recursive: true });
      writeFileSync(join(outside, "leak.md"), "OUTSIDE-LEAK\n");
      symlinkSync(outside, join(s.ws.dir, "linked"));
      s.ws.write("CLAUDE.md", "ROOT-RULE\n@docs/one.md\n@linked/leak.md\n@.env\n`@docs/code-span.md`\n");
      s.ws.write(".env", "SECRET=ENV-SECRET\n");
      s.ws.write("docs/code-span.md", "CODE-SPAN-NOT-IMPORTED\n");
      s.ws.write("docs/one.md", "LEVEL-1 @two.md and back @../CLAUDE.md\n");
      s.ws.write("docs/two.md", "LEVEL-2 @three.md\n");
      s.ws.write("docs/three.md", "LEVEL-3 @four.md\n");
      s.ws.write("docs/four.md", "LEVEL-4 @five.md\n");
      s.ws.write("docs/five.md", "LEVEL-5 @six.md\n");
      s.ws.write("docs/six.md", "LEVEL-6-TOO-DEEP\n");
      const result = await s.ws.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const system = s.server.request(1).normalized?.system ?? "";
      for (const text of ["ROOT-RULE", "LEVEL-1", "LEVEL-2", "LEVEL-3", "LEVEL-4", "LEVEL-5"]) {
        assert.match(system, new RegExp(text));
      }
      assert.doesNotMatch(system, /LEVEL-6-TOO-DEEP|OUTSIDE-LEAK|ENV-SECRET|CODE-SPAN-NOT-IMPORTED/);
      const start = s.latest().decisions.find((d) => d.seat === "context.instructions");
      const details = (start?.reasons ?? []).map((r) => r.detail ?? "");
      assert.ok(
        details.some((d) => d.startsWith(`${join(s.ws.dir, "docs/one.md")}: import by ${join(s.ws.dir, "CLAUDE.md")}`)),
      );
      const skipped = details.filter((d) => d.includes(" imported by "));
      assert.ok(
        skipped.some((d) => /@six\.md imported by .*five\.md: imports are followed 5 deep/.test(d)),
        skipped.join("\n"),
      );
      assert.ok(skipped.some((d) => /@\.\.\/CLAUDE\.md imported by .*one\.md: a cycle/.test(d)));
      assert.ok(skipped.some((d) => d.includes("@linked/leak.md imported by")));
      assert.ok(skipped.some((d) => d.includes("@.env imported by")));
    } finally {
      await s.close();
    }
  });
});
