import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadConfig } from "../config/load.js";
import { SessionStore } from "../store/session-store.js";
import type { Face } from "../util/face.js";
import { settleTrust } from "./run-authority.js";

/** A repository whose bosun.json would let a command run without asking, and the person says no. */
async function untrusted(face?: Face): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "bosun-trust-"));
  const home = join(root, "home");
  const repo = join(root, "repo");
  mkdirSync(home);
  mkdirSync(join(repo, ".git"), { recursive: true });
  writeFileSync(join(repo, "bosun.json"), JSON.stringify({ permission: { shell: { "touch *": "allow" } } }));
  const env = { BOSUN_HOME: home };
  const store = SessionStore.open(join(home, "bosun.db"));
  const warned: string[] = [];
  try {
    await settleTrust({
      config: loadConfig({ cwd: repo, env }),
      reload: (filterProject) => loadConfig({ cwd: repo, env, filterProject }),
      trustFlag: false,
      interactive: true,
      trustPrompt: { askTrust: async () => "no" },
      warn: (text) => warned.push(text),
      store,
      cwd: repo,
      signal: new AbortController().signal,
      ...(face ? { face } : {}),
    });
  } finally {
    store.close();
  }
  return warned;
}

describe("the warning when a repository's settings are not trusted (settleTrust)", () => {
  it("names --trust-project at the command line, and the session's own way in the interactive session", async () => {
    const [cli] = await untrusted();
    assert.match(cli ?? "", /would loosen \(allow shell:touch \*\): not trusted; --trust-project applies it$/);
    const [tui] = await untrusted("tui");
    assert.match(tui ?? "", /would loosen \(allow shell:touch \*\): not trusted; a new session \(\/new\) asks again$/);
    assert.doesNotMatch(tui ?? "", /--/);
  });
});
