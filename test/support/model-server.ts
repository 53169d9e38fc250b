import assert from "node:assert/strict";
import {
  type RecordedRequest,
  type Script,
  type ScriptedServer,
  startScriptedServer,
} from "../../src/devtools/model-server/index.js";

export type { RecordedRequest, Script, ScriptedServer };

/** How bosun talks to the server: the `type` (and `api`) of a bosun.json provider. */
export type ScriptedProtocol = "openai-compatible" | "anthropic" | "openai" | "openai-chat";

export interface ModelServer extends ScriptedServer {
  /** A bosun.json-style config whose default model is `scripted/<modelId>`, served by this server. */
  configFor(protocol: ScriptedProtocol, modelId?: string): ScriptedConfig;
  /** The normalized view of request `number` (1-based); throws when there is none. */
  request(number: number): RecordedRequest;
}

export interface ScriptedConfig {
  model: string;
  provider: {
    scripted: { type: "openai-compatible" | "anthropic" | "openai"; api?: "chat"; baseURL: string; apiKey: string };
  };
}

/** Starts a scripted model server on a free loopback port. Close it in `after`/`finally`. */
export async function startModelServer(script: Script): Promise<ModelServer> {
  const server = await startScriptedServer(script);
  return Object.assign(server, {
    configFor(protocol: ScriptedProtocol, modelId = "test-model"): ScriptedConfig {
      const type = protocol === "openai-chat" ? "openai" : protocol;
      return {
        model: `scripted/${modelId}`,
        provider: {
          scripted: {
            type,
            ...(protocol === "openai-chat" ? { api: "chat" as const } : {}),
            baseURL: server.baseURL,
            apiKey: "test-key",
          },
        },
      };
    },
    request(number: number): RecordedRequest {
      const found = server.requests.find((request) => request.number === number);
      if (!found) {
        throw new Error(`the scripted model server got no request ${number} (it got ${server.requests.length})`);
      }
      return found;
    },
  });
}

/** Fails the test with every recorded failure (no rule matched, unadvertised tool, bad path). */
export function assertNoFailures(server: ScriptedServer): void {
  assert.deepEqual(server.failures, [], `scripted model server failures:\n${server.failures.join("\n")}`);
}

/** Runs `body` against a fresh server, asserts no failures, and always closes it. */
export async function withModelServer<T>(script: Script, body: (server: ModelServer) => Promise<T>): Promise<T> {
  const server = await startModelServer(script);
  try {
    const result = await body(server);
    assertNoFailures(server);
    return result;
  } finally {
    await server.close();
  }
}
