import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { DEFAULTS } from "./defaults.js";
import { formatOriginRow, formatScalar, originRows, REDACTED, shownConfig, shownValue } from "./display.js";
import { type LoadedConfig, loadConfig, type Origin } from "./load.js";

let root: string;
let work: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bosun-config-display-"));
  work = join(root, "work");
  mkdirSync(join(work, ".git"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function loadWith(project: string, env: NodeJS.ProcessEnv = {}): LoadedConfig {
  writeFileSync(join(work, "bosun.json"), project);
  return loadConfig({ cwd: work, env: { BOSUN_HOME: join(root, "home"), ...env } });
}

const SECRET = "sk-live-0123456789";

describe("shownValue", () => {
  const origin = (raw?: unknown): Origin => ({ layer: "project", source: "f", key: "k", ...(raw ? { raw } : {}) });

  it("shows a value from a reference as the reference", () => {
    assert.equal(shownValue("provider.p.apiKey", SECRET, origin("{env:KEY}")), "{env:KEY}");
    assert.equal(shownValue("provider.p.baseURL", "https://x", origin("{file:url.txt}")), "{file:url.txt}");
  });

  it("redacts secret-looking keys written literally", () => {
    for (const key of [
      "provider.p.apiKey",
      "provider.p.api_key",
      "provider.p.headers.X-Api-Key",
      "provider.p.headers.Authorization",
      "provider.p.headers.x-auth-token",
      "provider.p.headers.client_secret",
      "provider.p.headers.PASSWORD",
      'provider.p.headers["Proxy-Authorization"]',
      "provider.p.headers.Cookie",
    ]) {
      assert.equal(shownValue(key, SECRET, origin()), REDACTED, key);
    }
  });

  it("leaves other keys alone", () => {
    for (const key of ["model", "provider.p.baseURL", "provider.apiKey.baseURL", "provider.p.models.x.context"]) {
      assert.equal(shownValue(key, "visible", origin()), "visible", key);
    }
    assert.equal(shownValue("max_steps", 5, undefined), 5);
  });

  it("redacts every header value, whatever the header is called", () => {
    assert.equal(shownValue("provider.p.headers.X-Token-Id", "visible", origin()), REDACTED);
    assert.equal(shownValue("provider.p.headers.X-Custom", SECRET, origin()), REDACTED);
  });

  it("shows a secret's reference only when it is exactly one reference; literal text around it is redacted", () => {
    assert.equal(shownValue("provider.p.apiKey", SECRET, origin("{env:KEY}")), "{env:KEY}");
    assert.equal(shownValue("provider.p.apiKey", `sk-LIT-${SECRET}`, origin("sk-LIT-{env:HOME}")), REDACTED);
    assert.equal(
      shownValue("provider.p.headers.Authorization", `Bearer ${SECRET}`, origin("Bearer {env:KEY}")),
      REDACTED,
    );
  });

  it("masks passwords in URLs in any value", () => {
    assert.equal(
      shownValue("provider.p.baseURL", "https://u:pw@h.example/v1", origin()),
      "https://u:<redacted>@h.example/v1",
    );
    assert.equal(shownValue("provider.p.baseURL", "https://h.example/v1", origin()), "https://h.example/v1");
    assert.deepEqual(shownValue("fallback", ["a/b", "http://x:y@z"], origin()), ["a/b", "http://x:<redacted>@z"]);
  });

  it("judges a key by its last segment even when that segment is quoted", () => {
    assert.equal(shownValue('provider.p.headers["x.api_key"]', SECRET, origin()), REDACTED);
    assert.equal(shownValue('provider["a.b"].apiKey', SECRET, origin()), REDACTED);
    assert.equal(shownValue('provider["my.token"].baseURL', "url", origin()), "url");
  });
});

describe("shownConfig", () => {
  it("has the resolved config's shape with references and redactions in place of secrets", () => {
    const loaded = loadWith(
      JSON.stringify({
        model: "a/b",
        provider: {
          env: { apiKey: "{env:KEY}", headers: { Authorization: "Bearer {env:KEY}" } },
          lit: { apiKey: SECRET, models: { "gpt-4.1": { context: 5 } } },
        },
      }),
      { KEY: SECRET },
    );
    assert.equal(loaded.config.provider?.env?.apiKey, SECRET);
    const shown = shownConfig(loaded);
    assert.deepEqual(shown, {
      model: "a/b",
      provider: {
        env: { apiKey: "{env:KEY}", headers: { Authorization: REDACTED } },
        lit: { apiKey: REDACTED, models: { "gpt-4.1": { context: 5 } } },
      },
      ...withoutModelKeys(DEFAULTS),
    });
    assert.doesNotMatch(JSON.stringify(shown), new RegExp(SECRET));
  });

  it("keeps empty objects, so every object key of the config is one of the shown config", () => {
    const loaded = loadWith('{ "provider": { "empty": {}, "p": { "headers": {} } } }');
    const shown = shownConfig(loaded);
    assert.deepEqual(shown.provider, { empty: {}, p: { headers: {} } });
  });
});

/** The defaults, as the shown config has them (every default is a plain value). */
function withoutModelKeys(defaults: typeof DEFAULTS): Record<string, unknown> {
  return JSON.parse(JSON.stringify(defaults));
}

describe("originRows", () => {
  it("gives one row per leaf with layer, source, file and line", () => {
    const loaded = loadWith('{\n  "model": "a/b",\n  "retry": {\n    "max_attempts": 2\n  }\n}', {
      BOSUN_MAX_STEPS: "9",
    });
    const file = join(work, "bosun.json");
    // Rows follow the schema's key order: model before max_steps before retry.
    assert.deepEqual(
      originRows(loaded).filter((r) => r.layer !== "default" || r.key.startsWith("retry")),
      [
        { key: "model", value: "a/b", layer: "project", source: file, file, line: 2 },
        { key: "max_steps", value: 9, layer: "env", source: "BOSUN_MAX_STEPS" },
        { key: "retry.max_attempts", value: 2, layer: "project", source: file, file, line: 4 },
        { key: "retry.max_delay_ms", value: 30_000, layer: "default", source: "built-in" },
      ],
    );
  });

  it("shows references and redactions, never the secret", () => {
    const loaded = loadWith(
      JSON.stringify({ provider: { a: { apiKey: "{env:KEY}" }, b: { apiKey: SECRET } }, fallback: ["{env:KEY}"] }),
      { KEY: SECRET },
    );
    const rows = originRows(loaded);
    assert.deepEqual(
      rows.filter((r) => r.layer !== "default").map((r) => [r.key, r.value]),
      [
        ["fallback", ["{env:KEY}"]],
        ["provider.a.apiKey", "{env:KEY}"],
        ["provider.b.apiKey", REDACTED],
      ],
    );
    assert.doesNotMatch(JSON.stringify(rows), new RegExp(SECRET));
  });
});

describe("formatOriginRow", () => {
  it("prints layer, source[:line] and key=value separated by tabs", () => {
    assert.equal(
      formatOriginRow({
        key: "model",
        value: "a/b",
        layer: "project",
        source: "/r/bosun.json",
        file: "/r/bosun.json",
        line: 3,
      }),
      "project\t/r/bosun.json:3\tmodel=a/b",
    );
    assert.equal(
      formatOriginRow({ key: "max_steps", value: 100, layer: "default", source: "built-in" }),
      "default\tbuilt-in\tmax_steps=100",
    );
    assert.equal(
      formatOriginRow({ key: "fallback", value: ["a", "b"], layer: "flag", source: "--x" }),
      'flag\t--x\tfallback=["a","b"]',
    );
  });

  it("prints strings bare and everything else as JSON", () => {
    assert.equal(formatScalar("a b"), "a b");
    assert.equal(formatScalar(true), "true");
    assert.equal(formatScalar(null), "null");
    assert.equal(formatScalar({ a: 1 }), '{"a":1}');
  });
});
