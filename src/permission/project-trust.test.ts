import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import { loadConfig } from "../config/load.js";
import type { Answer, RecordedDecision } from "../seats/types.js";
import { SessionStore } from "../store/session-store.js";
import { isTrusted, listTrusted, revokeTrusted, trustProject } from "../store/trusted-projects.js";
import { decideProjectTrust, projectLoosening, usableValue } from "./project-trust.js";

const asRecorded = (answer: Answer): RecordedDecision[] => [{ seat: "project.trust", ...answer, seq: 1, at: "" }];

describe("project trust", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-trust-")));
  after(() => rmSync(root, { recursive: true, force: true }));
  const load = (project: unknown, global: unknown = {}) => {
    const ws = join(root, `ws${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(join(ws, "home"));
    writeFileSync(join(ws, "bosun.json"), JSON.stringify(project));
    writeFileSync(join(ws, "home", "bosun.json"), JSON.stringify(global));
    return loadConfig({ cwd: ws, env: { BOSUN_HOME: join(ws, "home") } });
  };

  it("lists what a repository's config would loosen, and nothing it merely tightens", () => {
    const config = load({
      mode: "auto",
      judge_model: "x/y",
      permission: { shell: { "*": "ask", "npm test *": "allow", "rm *": "deny" }, web: "allow", edit: "deny" },
      agent: { build: { mode: "smart", permission: { edit: { "docs/**": "allow" } } } },
    });
    const loose = projectLoosening(config, "build");
    assert.deepEqual(loose?.items, [
      "mode auto",
      "agent build mode smart",
      "judge_model x/y",
      "allow shell:npm test *",
      "allow web:*",
      "agent build: allow edit:docs/**",
    ]);
    assert.match(loose?.fingerprint ?? "", /^[0-9a-f]{16}$/);
    assert.equal(projectLoosening(load({ mode: "chat", permission: { shell: "deny" } }), "build"), undefined);
    assert.equal(projectLoosening(load({}, { mode: "auto", permission: { shell: "allow" } }), "build"), undefined);
  });

  it("trusts by flag or saved trust (person), asks at a terminal, else code leaves it out", async () => {
    const loosening = { items: ["mode auto"], files: ["/r/bosun.json"], fingerprint: "f" };
    const signal = new AbortController().signal;
    expectDecision(
      asRecorded(await decideProjectTrust({ loosening, flag: true, saved: false, signal })),
      "project.trust",
      "person",
      "trusted",
    );
    expectDecision(
      asRecorded(await decideProjectTrust({ loosening, flag: false, saved: true, signal })),
      "project.trust",
      "person",
      "trusted",
    );
    const refused = await decideProjectTrust({ loosening, flag: false, saved: false, signal });
    expectDecision(asRecorded(refused), "project.trust", "code", "untrusted");
    assert.equal(refused.reasons[1]?.detail, "mode auto");
    const asked = await decideProjectTrust({
      loosening,
      flag: false,
      saved: false,
      signal,
      prompt: { askTrust: async () => "always" },
    });
    assert.equal(asked.answer, "trusted");
    assert.equal(asked.save, true);
    const no = await decideProjectTrust({
      loosening,
      flag: false,
      saved: false,
      signal,
      prompt: { askTrust: async () => "no" },
    });
    expectDecision(asRecorded(no), "project.trust", "person", "untrusted");
  });

  it("falls back to the user's own value for a key the untrusted repository set", () => {
    const config = load({ mode: "auto" }, { mode: "smart" });
    assert.deepEqual(usableValue(config, "mode", config.config.mode, false).value, "auto");
    const fallback = usableValue(config, "mode", config.config.mode, true);
    assert.equal(fallback.value, "smart");
    assert.equal(fallback.withheld, "auto");
    const none = usableValue(load({ mode: "auto" }), "mode", "auto", true);
    assert.equal(none.value, undefined);
  });

  it("saves trust per project and exact content", () => {
    const store = SessionStore.open(join(root, "t.db"));
    try {
      trustProject(store, "/p", "abc", ["mode auto"]);
      trustProject(store, "/p", "abc", ["mode auto"]);
      assert.equal(isTrusted(store, "/p", "abc"), true);
      assert.equal(isTrusted(store, "/p", "abd"), false);
      assert.equal(isTrusted(store, "/q", "abc"), false);
      const [saved] = listTrusted(store, "/p");
      assert.deepEqual(saved?.items, ["mode auto"]);
      assert.deepEqual(
        revokeTrusted(store, [saved?.id ?? 0]).map((t) => t.fingerprint),
        ["abc"],
      );
      assert.equal(isTrusted(store, "/p", "abc"), false);
    } finally {
      store.close();
    }
  });
});
