import assert from "node:assert/strict";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { dataDir, globalConfigFile } from "./paths.js";

describe("config paths", () => {
  it("keeps everything under BOSUN_HOME when it is set, XDG notwithstanding", () => {
    const env = { BOSUN_HOME: "/b", XDG_CONFIG_HOME: "/x", XDG_DATA_HOME: "/d" };
    assert.equal(globalConfigFile(env), join("/b", "bosun.json"));
    assert.equal(dataDir(env), join("/b", "data"));
  });

  it("uses the XDG folders when BOSUN_HOME is unset or empty", () => {
    for (const env of [
      { XDG_CONFIG_HOME: "/x", XDG_DATA_HOME: "/d" },
      { BOSUN_HOME: "", XDG_CONFIG_HOME: "/x", XDG_DATA_HOME: "/d" },
    ]) {
      assert.equal(globalConfigFile(env), join("/x", "bosun", "bosun.json"));
      assert.equal(dataDir(env), join("/d", "bosun"));
    }
  });

  it("falls back to ~/.config and ~/.local/share", () => {
    assert.equal(globalConfigFile({}), join(homedir(), ".config", "bosun", "bosun.json"));
    assert.equal(dataDir({ XDG_DATA_HOME: "" }), join(homedir(), ".local", "share", "bosun"));
  });
});
