import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Request } from "../../contracts/requests.js";
import type { Judged } from "../gate/authorize.js";
import { alwaysOffer } from "./always.js";
import type { Effect, Layer, Rule } from "./rules.js";

const rule = (layer: Layer, effect: Effect): Rule => ({
  action: "shell",
  pattern: "*",
  effect,
  source: { layer, key: `${layer} rule` },
});
const judged = (request: Request, effect: Effect, by: Rule | undefined = rule("default", effect)): Judged => ({
  request,
  effect,
  ...(by ? { rule: by } : {}),
  reasons: [],
  holder: "code",
});

describe("alwaysOffer", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bosun-always-")));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("saves the prefix of each asking command, never the compound line", () => {
    const offer = alwaysOffer([
      judged({ action: "shell", resource: "git status", readOnly: true, prefix: "git status" }, "allow"),
      judged({ action: "shell", resource: "npm run build -- --prod", prefix: "npm run build" }, "ask"),
      judged({ action: "shell", resource: "rm -rf dist", prefix: "rm" }, "ask"),
    ]);
    assert.deepEqual(offer.options, [
      {
        label: "always",
        rules: [
          { action: "shell", pattern: "npm run build *" },
          { action: "shell", pattern: "rm *" },
        ],
      },
    ]);
  });

  it("saves an edit per file, or per folder as a second option, with glob characters escaped", () => {
    const offer = alwaysOffer([judged({ action: "edit", resource: "/w/src/a[1].ts" }, "ask")]);
    assert.deepEqual(offer.options, [
      { label: "always", rules: [{ action: "edit", pattern: "/w/src/a\\[1\\].ts" }] },
      { label: "always, whole folder", rules: [{ action: "edit", pattern: "/w/src/**" }] },
    ]);
  });

  it("saves a path outside the workspace as its folder", () => {
    const offer = alwaysOffer([
      judged({ action: "read", resource: `${dir}/notes.txt` }, "allow"),
      judged({ action: "external_directory", resource: `${dir}/notes.txt` }, "ask"),
      judged({ action: "external_directory", resource: dir }, "ask"),
    ]);
    assert.deepEqual(offer.options, [
      { label: "always", rules: [{ action: "external_directory", pattern: `${dir}/**` }] },
    ]);
  });

  it("offers nothing when a command's name is not known, a path is unknown, or a written rule asks", () => {
    assert.match(alwaysOffer([judged({ action: "shell", resource: '"$X" go' }, "ask")]).unavailable ?? "", /not known/);
    assert.match(alwaysOffer([judged({ action: "edit", resource: "*" }, "ask")]).unavailable ?? "", /not known/);
    const written = alwaysOffer([
      judged({ action: "shell", resource: "git push", prefix: "git push" }, "ask", rule("project", "ask")),
    ]);
    assert.deepEqual(written.options, []);
    assert.match(written.unavailable ?? "", /project rule \(project rule\) asks/);
  });

  it("offers nothing when nothing asks", () => {
    assert.deepEqual(alwaysOffer([judged({ action: "read", resource: "/w/a" }, "allow")]), { options: [] });
  });
});
