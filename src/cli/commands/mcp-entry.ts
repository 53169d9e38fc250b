import { UsageError } from "../../errors.js";

/** `bosun mcp add`'s flags, as commander gives them. */
export interface AddFlags {
  scope?: string;
  env?: string[];
  header?: string[];
  transport?: string;
  url?: string;
  force?: boolean;
  required?: boolean;
  disabled?: boolean;
}

const NAME = /^[A-Za-z0-9_-]+$/;
const USAGE =
  "usage: bosun mcp add <name> [--scope user|project] [--env K=V]... -- <command> [args...], or bosun mcp add <name> --url <url> [--header 'K: V']...";

/**
 * The config entry `bosun mcp add` writes, from its flags and the words after `--`; a flag that
 * does not fit (both a command and a url, an env for a url, a header for a command, a transport
 * the other way round, a malformed K=V) is a usage error naming it, before anything is read or
 * written. Pure. The schema has the last word (the caller validates the file as written).
 */
export function serverEntry(name: string, words: readonly string[], flags: AddFlags): Record<string, unknown> {
  if (!NAME.test(name)) throw usage(`"${name}" is not a server name: letters, digits, _ and - only`);
  const [command, ...args] = words;
  if (flags.url !== undefined && command !== undefined)
    throw usage("give either --url or a command after --, not both");
  if (flags.url === undefined && command === undefined)
    throw usage("give a command after -- (stdio) or --url (remote)");
  const transport = flags.transport;
  if (transport !== undefined && !["stdio", "http", "sse"].includes(transport)) {
    throw usage(`--transport ${transport}: stdio, http or sse`);
  }
  const entry: Record<string, unknown> = {};
  if (command !== undefined) {
    if (transport !== undefined && transport !== "stdio") throw usage(`--transport ${transport} needs --url`);
    if ((flags.header ?? []).length > 0) throw usage("--header is for a --url server");
    entry.command = command;
    if (args.length > 0) entry.args = [...args];
    const env = pairs(flags.env ?? [], "=", "--env", "K=V");
    if (env) entry.env = env;
  } else {
    if (transport === "stdio") throw usage("--transport stdio needs a command after --");
    if ((flags.env ?? []).length > 0) throw usage("--env is for a stdio server (a remote one takes --header)");
    if (!/^https?:\/\/\S+$/.test(flags.url ?? "")) throw usage(`--url ${flags.url}: an http(s) URL`);
    if (transport !== undefined) entry.type = transport;
    entry.url = flags.url;
    const headers = pairs(flags.header ?? [], ":", "--header", "'Name: value'");
    if (headers) entry.headers = headers;
  }
  if (flags.required) entry.required = true;
  if (flags.disabled) entry.enabled = false;
  return entry;
}

/** `--scope`: user (your own config, the default) or project (the repository's bosun.json). */
export function scopeOf(flag: string | undefined): "user" | "project" | undefined {
  if (flag === undefined) return undefined;
  if (flag === "user" || flag === "project") return flag;
  throw usage(`--scope ${flag}: user or project`);
}

function pairs(values: readonly string[], separator: string, flag: string, form: string) {
  if (values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf(separator);
    const key = at > 0 ? value.slice(0, at).trim() : "";
    if (key === "" || /\s/.test(key)) throw usage(`${flag} ${value}: expected ${form}`);
    // A header's value is what follows "Name:" and its spaces; an env value is exactly as given.
    out[key] = separator === ":" ? value.slice(at + 1).trim() : value.slice(at + 1);
  }
  return out;
}

function usage(text: string): UsageError {
  return new UsageError(`mcp add: ${text}\n${USAGE}`);
}
