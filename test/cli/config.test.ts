import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { DEFAULTS } from "../../src/config/defaults.js";
import type { OriginRow } from "../../src/config/display.js";
import { createWorkspace, type RunResult, type Workspace } from "../support/workspace.js";

/**
 * `bosun config`, `bosun config --origin [--json]` and `bosun config get`, driven through the
 * real compiled binary. Each test gets a fresh repository and BOSUN_HOME.
 */
let ws: Workspace;
let repo: string;

beforeEach(() => {
  ws = createWorkspace();
  repo = realpathSync(ws.dir);
});
afterEach(() => ws.cleanup());

const SECRET = "sk-scenario-7f3a9c1e5b";
const LITERAL = "sk-literal-2d8e4b6a0c";

function ok(result: RunResult): RunResult {
  assert.equal(result.code, 0, `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  return result;
}

function writeGlobal(content: string): string {
  const file = join(ws.home, "bosun.json");
  writeFileSync(file, content);
  return file;
}

function originLines(result: RunResult): string[] {
  return ok(result).stdout.trimEnd().split("\n");
}

/** Exit 2, nothing on stdout, the message on stderr, and no database or data folder created. */
function assertConfigError(result: RunResult, message: RegExp | string): void {
  assert.equal(result.code, 2, `exit ${result.code}\nstderr: ${result.stderr}`);
  assert.equal(result.stdout, "");
  if (typeof message === "string") assert.equal(result.stderr, `bosun: ${message}\n`);
  else assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /internal error/);
  assert.equal(existsSync(join(ws.home, "data")), false, "data folder was created");
}

function assertNoSecret(result: RunResult, ...secrets: string[]): void {
  for (const secret of secrets) {
    assert.equal(result.stdout.includes(secret), false, `secret on stdout: ${result.stdout}`);
    assert.equal(result.stderr.includes(secret), false, `secret on stderr: ${result.stderr}`);
  }
}

describe("bosun config: layers", () => {
  it("prints the built-in defaults when nothing is configured", async () => {
    const result = ok(await ws.run(["config"]));
    assert.deepEqual(JSON.parse(result.stdout), DEFAULTS);
    assert.equal(result.stderr, "");
    const lines = originLines(await ws.run(["config", "--origin"]));
    assert.ok(lines.every((line) => line.startsWith("default\tbuilt-in\t")));
    for (const line of ["max_steps=100", "retry.max_attempts=4", "retry.max_delay_ms=30000", "output.max_lines=2000"]) {
      assert.ok(lines.includes(`default\tbuilt-in\t${line}`), line);
    }
  });

  it("stacks every layer, each overriding the one below key by key, and says who set what", async () => {
    const global = writeGlobal(
      '{\n  "model": "global/m",\n  "fallback": ["g/1", "g/2"],\n  "retry": { "max_attempts": 7 },\n  "provider": { "openai": { "baseURL": "https://global" } }\n}',
    );
    const root = ws.write(
      "bosun.json",
      '{\n  // the repository root\n  "fallback": ["root/1"],\n  "max_steps": 11,\n}',
    );
    const sub = ws.write(
      "pkg/app/bosun.json",
      '{\n  "retry": {\n    "max_delay_ms": 50\n  },\n  "provider": { "openai": { "type": "openai" } }\n}',
    );
    const extra = ws.write("conf/extra.json", '{ "max_steps": 22 }');
    const cwd = join(repo, "pkg", "app");
    const env = {
      BOSUN_CONFIG: extra,
      BOSUN_CONFIG_CONTENT: '{\n"retry": { "max_attempts": 8 }\n}',
      BOSUN_MAX_STEPS: "33",
      BOSUN_MODEL: "env/m",
    };

    const config = ok(await ws.run(["config"], { cwd, env }));
    assert.deepEqual(JSON.parse(config.stdout), {
      ...DEFAULTS,
      model: "env/m",
      fallback: ["root/1"],
      provider: { openai: { type: "openai", baseURL: "https://global" } },
      max_steps: 33,
      retry: { max_attempts: 8, max_delay_ms: 50 },
    });

    const set = originLines(await ws.run(["config", "--origin", "--model", "flag/m"], { cwd, env }));
    assert.deepEqual(
      set.filter((line) => !line.startsWith("default\t")),
      [
        "flag\t--model\tmodel=flag/m",
        `project\t${root}:3\tfallback=["root/1"]`,
        `project\t${sub}:5\tprovider.openai.type=openai`,
        `global\t${global}:5\tprovider.openai.baseURL=https://global`,
        "env\tBOSUN_MAX_STEPS\tmax_steps=33",
        "BOSUN_CONFIG_CONTENT\tBOSUN_CONFIG_CONTENT:2\tretry.max_attempts=8",
        `project\t${sub}:3\tretry.max_delay_ms=50`,
      ],
    );
  });

  it("prints --origin --json rows with key, value, layer, source, file and line", async () => {
    const file = ws.write("bosun.json", '{\n  "model": "a/b",\n  "fallback": ["c/d"]\n}');
    const result = ok(await ws.run(["config", "--origin", "--json"], { env: { BOSUN_MAX_STEPS: "5" } }));
    const rows = (JSON.parse(result.stdout) as OriginRow[]).filter(
      (r) => r.layer !== "default" || r.key.startsWith("retry"),
    );
    assert.deepEqual(rows, [
      { key: "model", value: "a/b", layer: "project", source: file, file, line: 2 },
      { key: "fallback", value: ["c/d"], layer: "project", source: file, file, line: 3 },
      { key: "max_steps", value: 5, layer: "env", source: "BOSUN_MAX_STEPS" },
      { key: "retry.max_attempts", value: 4, layer: "default", source: "built-in" },
      { key: "retry.max_delay_ms", value: 30000, layer: "default", source: "built-in" },
    ]);
  });

  it("gives each layer precedence over the one below, one at a time", async () => {
    const env: NodeJS.ProcessEnv = {};
    const flags: string[] = [];
    const expectModel = async (value: string, layer: string) => {
      const result = ok(await ws.run(["config", "--origin", "--json", ...flags], { env }));
      const row = (JSON.parse(result.stdout) as OriginRow[]).find((r) => r.key === "model");
      assert.deepEqual([row?.value, row?.layer], [value, layer]);
      assert.equal(JSON.parse(ok(await ws.run(["config", ...flags], { env })).stdout).model, value);
    };
    writeGlobal('{ "model": "global/m" }');
    await expectModel("global/m", "global");
    ws.write("bosun.json", '{ "model": "root/m" }');
    await expectModel("root/m", "project");
    env.BOSUN_CONFIG = ws.write("other/config.json", '{ "model": "file/m" }');
    await expectModel("file/m", "BOSUN_CONFIG");
    env.BOSUN_CONFIG_CONTENT = '{ "model": "content/m" }';
    await expectModel("content/m", "BOSUN_CONFIG_CONTENT");
    env.BOSUN_MODEL = "env/m";
    await expectModel("env/m", "env");
    flags.push("--model", "flag/m");
    await expectModel("flag/m", "flag");
    flags.splice(0, 2, "-m", "short/m");
    await expectModel("short/m", "flag");
  });

  it("lets the subfolder's bosun.json win over the repository root's, only below it", async () => {
    ws.write("bosun.json", '{ "model": "root/m", "max_steps": 4 }');
    ws.write("sub/bosun.json", '{ "model": "sub/m" }');
    mkdirSync(join(repo, "other"));
    assert.equal(ok(await ws.run(["config", "get", "model"], { cwd: join(repo, "sub") })).stdout, "sub/m\n");
    assert.equal(ok(await ws.run(["config", "get", "max_steps"], { cwd: join(repo, "sub") })).stdout, "4\n");
    assert.equal(ok(await ws.run(["config", "get", "model"], { cwd: join(repo, "other") })).stdout, "root/m\n");
    assert.equal(ok(await ws.run(["config", "get", "model"])).stdout, "root/m\n");
  });

  it("reads the global file from XDG_CONFIG_HOME when BOSUN_HOME is unset", async () => {
    const xdg = join(ws.home, "xdg");
    mkdirSync(join(xdg, "bosun"), { recursive: true });
    const file = join(xdg, "bosun", "bosun.json");
    writeFileSync(file, '{ "model": "xdg/m" }');
    const env = { BOSUN_HOME: "", XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: join(ws.home, "xdg-data") };
    assert.deepEqual(originLines(await ws.run(["config", "--origin"], { env }))[0], `global\t${file}:1\tmodel=xdg/m`);
  });

  it("replaces arrays whole", async () => {
    writeGlobal('{ "fallback": ["a/1", "b/2", "c/3"] }');
    ws.write("bosun.json", '{ "fallback": ["z/9"] }');
    assert.equal(ok(await ws.run(["config", "get", "fallback"])).stdout, '[\n  "z/9"\n]\n');
  });
});

describe("bosun config: bad input exits 2 and writes nothing", () => {
  it("names file, line and column of a JSONC syntax error", async () => {
    const file = ws.write("bosun.json", '{\n  "model": "a/b"\n  "max_steps": 3\n}');
    assertConfigError(await ws.run(["config"]), `${file}:3:3: syntax error: comma expected`);
  });

  it("names file and key of an unknown key and suggests the closest", async () => {
    const file = ws.write("bosun.json", '{\n  "modle": "a/b"\n}');
    assertConfigError(await ws.run(["config"]), `${file}:2: unknown key "modle" — did you mean "model"?`);
  });

  it("suggests the closest nested key", async () => {
    const file = writeGlobal('{\n  "retry": {\n    "max_atempts": 3\n  }\n}');
    assertConfigError(
      await ws.run(["config", "--origin"]),
      `${file}:3: unknown key "retry.max_atempts" — did you mean "retry.max_attempts"?`,
    );
  });

  it("names key, expected and received type of a wrong type", async () => {
    const file = ws.write("bosun.json", '{\n  "max_steps": "ten"\n}');
    assertConfigError(
      await ws.run(["config", "get", "model"]),
      `${file}:2: key "max_steps": expected integer, received string ("ten")`,
    );
  });

  it("rejects a BOSUN_MAX_STEPS that is not an integer", async () => {
    assertConfigError(
      await ws.run(["config"], { env: { BOSUN_MAX_STEPS: "12.5" } }),
      'BOSUN_MAX_STEPS: key "max_steps": expected an integer, received "12.5"',
    );
  });

  it("rejects a BOSUN_CONFIG naming a missing file", async () => {
    const missing = join(repo, "missing.json");
    assertConfigError(
      await ws.run(["config"], { env: { BOSUN_CONFIG: "missing.json" } }),
      `BOSUN_CONFIG points to ${missing}, which does not exist`,
    );
  });

  it("rejects a top level that is not an object", async () => {
    const file = ws.write("bosun.json", '["model"]');
    assertConfigError(await ws.run(["config"]), `${file}: config must be a JSON object, not an array`);
    ws.write("bosun.json", "null");
    assertConfigError(await ws.run(["config"]), `${file}: config must be a JSON object, not null`);
    ws.write("bosun.json", "{}");
    assertConfigError(
      await ws.run(["config"], { env: { BOSUN_CONFIG_CONTENT: '"x"' } }),
      /BOSUN_CONFIG_CONTENT: config must be a JSON object, not a string/,
    );
  });

  it("rejects a broken BOSUN_CONFIG_CONTENT naming the variable", async () => {
    assertConfigError(
      await ws.run(["config"], { env: { BOSUN_CONFIG_CONTENT: '{ "model": }' } }),
      "BOSUN_CONFIG_CONTENT:1:12: syntax error: value expected",
    );
  });

  it("stops a command that would write the database before it opens it", async () => {
    ws.write("bosun.json", '{ "modle": "a/b" }');
    const result = await ws.run(["sessions", "new"]);
    assertConfigError(result, /unknown key "modle" — did you mean "model"\?/);
    assert.deepEqual(readdirSync(ws.home), []);
  });
});

describe("bosun config: references and secrets", () => {
  const providerFile = [
    "{",
    '  "provider": {',
    '    "openai": {',
    '      "apiKey": "{env:OPENAI_KEY}",',
    '      "headers": { "Authorization": "Bearer {env:OPENAI_KEY}" }',
    "    },",
    `    "local": { "apiKey": "${LITERAL}", "baseURL": "http://127.0.0.1:11434/v1" }`,
    "  }",
    "}",
  ].join("\n");

  it("shows {env:} values as the reference and literal secrets redacted in config", async () => {
    ws.write("bosun.json", providerFile);
    const result = ok(await ws.run(["config"], { env: { OPENAI_KEY: SECRET } }));
    assertNoSecret(result, SECRET, LITERAL);
    assert.deepEqual(JSON.parse(result.stdout).provider, {
      openai: { apiKey: "{env:OPENAI_KEY}", headers: { Authorization: "<redacted>" } },
      local: { apiKey: "<redacted>", baseURL: "http://127.0.0.1:11434/v1" },
    });
  });

  it("shows references and redactions in config --origin, text and JSON", async () => {
    const file = ws.write("bosun.json", providerFile);
    const env = { OPENAI_KEY: SECRET };
    const text = await ws.run(["config", "--origin"], { env });
    assertNoSecret(text, SECRET, LITERAL);
    const lines = originLines(text);
    assert.ok(lines.includes(`project\t${file}:4\tprovider.openai.apiKey={env:OPENAI_KEY}`), text.stdout);
    assert.ok(lines.includes(`project\t${file}:5\tprovider.openai.headers.Authorization=<redacted>`));
    assert.ok(lines.includes(`project\t${file}:7\tprovider.local.apiKey=<redacted>`));

    const json = await ws.run(["config", "--origin", "--json"], { env });
    assertNoSecret(json, SECRET, LITERAL);
    const rows = JSON.parse(ok(json).stdout) as OriginRow[];
    assert.deepEqual(
      rows.find((r) => r.key === "provider.openai.apiKey"),
      { key: "provider.openai.apiKey", value: "{env:OPENAI_KEY}", layer: "project", source: file, file, line: 4 },
    );
    assert.equal(rows.find((r) => r.key === "provider.local.apiKey")?.value, "<redacted>");
  });

  it("shows references and redactions in config get, for a leaf and for an object", async () => {
    ws.write("bosun.json", providerFile);
    const env = { OPENAI_KEY: SECRET };
    const leaf = await ws.run(["config", "get", "provider.openai.apiKey"], { env });
    assertNoSecret(leaf, SECRET);
    assert.equal(ok(leaf).stdout, "{env:OPENAI_KEY}\n");

    const literal = await ws.run(["config", "get", "provider.local.apiKey"], { env });
    assertNoSecret(literal, LITERAL);
    assert.equal(ok(literal).stdout, "<redacted>\n");

    const object = await ws.run(["config", "get", "provider"], { env });
    assertNoSecret(object, SECRET, LITERAL);
    assert.deepEqual(JSON.parse(ok(object).stdout), {
      openai: { apiKey: "{env:OPENAI_KEY}", headers: { Authorization: "<redacted>" } },
      local: { apiKey: "<redacted>", baseURL: "http://127.0.0.1:11434/v1" },
    });
  });

  it("resolves {file:} relative to the config file that holds it, and shows the reference", async () => {
    ws.write("sub/bosun.json", '{ "provider": { "p": { "apiKey": "{file:keys/p.txt}" } } }');
    ws.write("sub/keys/p.txt", `${SECRET}\n`);
    const result = await ws.run(["config", "get", "provider.p.apiKey"], { cwd: join(repo, "sub") });
    assertNoSecret(result, SECRET);
    assert.equal(ok(result).stdout, "{file:keys/p.txt}\n");
    assert.equal(result.stderr, "");
  });

  it("never quotes a resolved secret in an error", async () => {
    ws.write("bosun.json", '{ "max_steps": "{env:STEPS}" }');
    const result = await ws.run(["config"], { env: { STEPS: SECRET } });
    assertConfigError(result, /key "max_steps": expected integer, received string \("\{env:STEPS\}"\)/);
    assertNoSecret(result, SECRET);
  });

  it("leaves a key whose reference does not resolve unset, masking lower layers, with a warning", async () => {
    writeGlobal('{ "provider": { "openai": { "baseURL": "https://global" } } }');
    const file = ws.write(
      "bosun.json",
      '{ "model": "a/b", "provider": { "openai": { "apiKey": "{env:NOT_SET_KEY}", "baseURL": "{file:no-such-file}" } } }',
    );
    const warnings = [
      `bosun: ${file}:1: provider.openai.apiKey: environment variable NOT_SET_KEY is not set; the key is left unset`,
      `bosun: ${file}:1: provider.openai.baseURL: file no-such-file cannot be read; the key is left unset`,
    ];

    const config = ok(await ws.run(["config"]));
    assert.deepEqual(config.stderr.trimEnd().split("\n"), warnings);
    // The global baseURL does not show through the project's failed reference.
    assert.deepEqual(JSON.parse(config.stdout).provider, { openai: {} });

    const unset = await ws.run(["config", "get", "provider.openai.apiKey"]);
    assert.equal(unset.code, 1);
    assert.equal(unset.stdout, "");
    assert.deepEqual(unset.stderr.trimEnd().split("\n"), [...warnings, "bosun: provider.openai.apiKey is not set"]);
  });
});

describe("bosun config get", () => {
  it("prints strings bare, numbers and arrays as JSON, objects as indented JSON", async () => {
    ws.write("bosun.json", '{ "model": "a/b", "fallback": ["c/d"], "retry": { "max_attempts": 2 } }');
    assert.equal(ok(await ws.run(["config", "get", "model"])).stdout, "a/b\n");
    assert.equal(ok(await ws.run(["config", "get", "max_steps"])).stdout, "100\n");
    assert.equal(ok(await ws.run(["config", "get", "retry.max_attempts"])).stdout, "2\n");
    assert.equal(ok(await ws.run(["config", "get", "fallback"])).stdout, '[\n  "c/d"\n]\n');
    assert.equal(
      ok(await ws.run(["config", "get", "retry"])).stdout,
      '{\n  "max_attempts": 2,\n  "max_delay_ms": 30000\n}\n',
    );
  });

  it("reads keys that contain dots, quoted or bracketed", async () => {
    const file = ws.write(
      "bosun.json",
      '{\n  "provider": {\n    "openai": {\n      "models": { "gpt-4.1": { "context": 1047576 } }\n    }\n  }\n}',
    );
    const key = 'provider.openai.models["gpt-4.1"].context';
    assert.equal(ok(await ws.run(["config", "get", key])).stdout, "1047576\n");
    assert.equal(ok(await ws.run(["config", "get", "provider.openai.models[gpt-4.1].context"])).stdout, "1047576\n");
    assert.equal(
      ok(await ws.run(["config", "get", 'provider.openai.models["gpt-4.1"]'])).stdout,
      '{\n  "context": 1047576\n}\n',
    );
    assert.ok(originLines(await ws.run(["config", "--origin"])).includes(`project\t${file}:4\t${key}=1047576`));
  });

  it("prints an empty object as {}", async () => {
    ws.write("bosun.json", '{ "provider": { "empty": {} } }');
    const result = ok(await ws.run(["config", "get", "provider.empty"]));
    assert.equal(result.stdout, "{}\n");
    assert.deepEqual(JSON.parse(ok(await ws.run(["config"])).stdout).provider, { empty: {} });
  });

  it("answers an unknown key with exit 2 and the closest known key", async () => {
    const result = await ws.run(["config", "get", "retry.max_atempts"]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.equal(result.stderr, 'bosun: unknown key "retry.max_atempts" — did you mean "retry.max_attempts"?\n');
    const top = await ws.run(["config", "get", "modle"]);
    assert.equal(top.code, 2);
    assert.match(top.stderr, /unknown key "modle" — did you mean "model"\?/);
  });

  it("answers a known key that is not set with exit 1", async () => {
    for (const key of ["model", "provider.anthropic.apiKey", 'provider.openai.models["gpt-4.1"].context']) {
      const result = await ws.run(["config", "get", key]);
      assert.equal(result.code, 1, key);
      assert.equal(result.stdout, "");
      assert.equal(result.stderr, `bosun: ${key} is not set\n`);
    }
  });

  it("takes --model before or after get, the nearer one winning", async () => {
    assert.equal(ok(await ws.run(["config", "get", "model", "-m", "x/after"])).stdout, "x/after\n");
    assert.equal(ok(await ws.run(["config", "-m", "x/before", "get", "model"])).stdout, "x/before\n");
    assert.equal(
      ok(await ws.run(["config", "-m", "x/before", "get", "model", "--model", "x/near"])).stdout,
      "x/near\n",
    );
  });

  it("answers a malformed key with exit 2", async () => {
    for (const key of ["retry..max_attempts", "provider[", 'models["gpt-4.1]']) {
      const result = await ws.run(["config", "get", key]);
      assert.equal(result.code, 2, key);
      assert.match(result.stderr, /^bosun: malformed key /, key);
    }
  });

  it("fails with exit 2 when the config is bad, whatever the key", async () => {
    ws.write("bosun.json", "{ oops");
    assertConfigError(await ws.run(["config", "get", "model"]), /bosun\.json:1:3: syntax error: /);
  });
});
