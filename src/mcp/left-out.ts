import type { LoadedConfig } from "../config/load.js";

/**
 * The repository's MCP servers an untrusted config left out whole (seat project.trust: their
 * command, args or url read your environment or files), by name, with what each would have
 * read — so /mcp can say they are there and need trust, though the session never saw them.
 * `listed` is the config as written, `used` the one the session runs on, `items` what the
 * trust decision said the repository's config would loosen.
 */
export function leftOutServers(
  listed: LoadedConfig,
  used: LoadedConfig,
  items: readonly string[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of Object.keys(listed.config.mcp ?? {})) {
    if (used.config.mcp?.[name]) continue;
    const reads = items
      .filter((item) => item.startsWith(`mcp ${name} `))
      .map((item) => item.slice(`mcp ${name} `.length));
    const what = reads.length > 0 ? `its ${reads.join("; ")}` : "it reads your environment or files";
    out.set(name, `${what}, and the repository's config is not trusted (seat project.trust)`);
  }
  return out;
}
