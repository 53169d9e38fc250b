/** The scripted model server: a fake model provider speaking the real wire protocols, for tests and demos. */
export type { NormalizedMessage, NormalizedRequest, Protocol } from "./normalize.js";
export type { Match, Reply, Rule, Script, ScriptToolCall, ScriptUsage } from "./script.js";
export { loadScriptFile, parseScript } from "./script.js";
export type { RecordedRequest, ScriptedServer, ScriptedServerOptions } from "./server.js";
export { startScriptedServer } from "./server.js";
