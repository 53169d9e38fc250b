import { ENTRY_DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import type { McpAnnotations } from "../contracts/tools.js";
import type { ServerEntry } from "./server-set.js";

/** One tool of a server as /mcp shows it: its name, its hints, and why it is refused if it is. */
export interface ToolStatus {
  name: string;
  annotations?: McpAnnotations;
  refused?: string;
}

/** What /mcp says of one configured server. */
export interface ServerStatus {
  name: string;
  /**
   * `needs trust`: a repository's server left out until the person trusts it — seat
   * project.command did not let it run, or seat project.trust left the repository's config's
   * server out whole (it reads your environment or files). `skipped`: not started otherwise.
   */
  state: "connected" | "failed" | "needs sign-in" | "disabled" | "needs trust" | "skipped";
  transport?: string;
  /** How many tools a connected server listed (as the ledger's "connected · N tools" says). */
  listed?: number;
  /** Every tool it brings as offered: its own, and bosun's list_resources/read_resource for a server with resources. */
  tools: ToolStatus[];
  /** Why it failed, or why it was never started. */
  error?: string;
  /** For one that needs trust: how the person lets it run. */
  approve?: string;
  /** The last lines it wrote to stderr (at failure, or as they stand now). */
  stderr: readonly string[];
}

/**
 * The repository's servers the session left out until trusted, and why each: seat
 * project.command's answer by `mcp.<name>` key, and the servers seat project.trust left out of
 * the config whole, by name (they are not in the config the session runs on).
 */
export interface Untrusted {
  /** `mcp.<name>` → why seat project.command did not let it run. */
  judged?: ReadonlyMap<string, string>;
  /** Name → why the untrusted repository's config left it out (seat project.trust). */
  leftOut?: ReadonlyMap<string, string>;
}

/** In the interactive session each is asked again as a new session opens; --trust-project trusts the config for a run. */
const ASK_AGAIN = "/new asks again (allow always keeps the yes), or allow its command in your own config's rules";
const TRUST_AGAIN = "/new asks again, or start bosun with --trust-project";

/**
 * Every server the config names, in its order, as things stand: started ones by how their
 * start (or last restart) ended, the others by why they were never started — then the
 * repository's servers an untrusted config left out, as needing trust.
 */
export function serverStatuses(
  config: LoadedConfig,
  skip: ReadonlySet<string>,
  entries: readonly ServerEntry[],
  refused: ReadonlyMap<string, string>,
  untrusted: Untrusted = {},
): ServerStatus[] {
  const configured = Object.entries(config.config.mcp ?? {}).map(([name, server]): ServerStatus => {
    const entry = entries.find((e) => e.name === name);
    if (!entry) {
      if (!(server.enabled ?? ENTRY_DEFAULTS.mcp_server.enabled)) {
        return { name, state: "disabled", tools: [], error: `mcp.${name}.enabled is false`, stderr: [] };
      }
      if (!skip.has(`mcp.${name}`)) return { name, state: "skipped", tools: [], error: "not started", stderr: [] };
      const why = untrusted.judged?.get(`mcp.${name}`) ?? "not approved to run";
      return {
        name,
        state: "needs trust",
        tools: [],
        error: `${why} (seat project.command)`,
        approve: ASK_AGAIN,
        stderr: [],
      };
    }
    const { outcome } = entry;
    if (!outcome.ok) {
      return {
        name,
        // An OAuth server with no usable stored tokens: `bosun mcp login` is the way on, then a reconnect.
        state: outcome.signIn ? "needs sign-in" : "failed",
        transport: outcome.transport,
        tools: [],
        error: outcome.message,
        stderr: outcome.stderr,
      };
    }
    const tools = entry.candidates.map(({ made }) => {
      const why = refused.get(made.name);
      return {
        name: made.name,
        ...(made.mcp?.annotations ? { annotations: made.mcp.annotations } : {}),
        ...(why ? { refused: why } : {}),
      };
    });
    const stderr = entry.started?.stderr() ?? [];
    return { name, state: "connected", transport: outcome.transport, listed: outcome.tools, tools, stderr };
  });
  const leftOut = [...(untrusted.leftOut ?? [])]
    .filter(([name]) => !config.config.mcp?.[name])
    .map(
      ([name, why]): ServerStatus => ({
        name,
        state: "needs trust",
        tools: [],
        error: why,
        approve: TRUST_AGAIN,
        stderr: [],
      }),
    );
  return [...configured, ...leftOut];
}
