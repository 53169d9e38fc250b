/**
 * Which config values may hold secrets. Kept in one place so display and error messages agree:
 * a key whose name says so (apiKey, token, password, ...), every HTTP header value, and every
 * variable an MCP server is given (`mcp.<name>.env.*`: servers take their keys that way).
 */
const SECRET_NAME = /(api[-_]?key|secret|password|passwd|token|authorization|cookie|credential)s?$/i;

export function isSecretPath(path: readonly string[]): boolean {
  const last = path[path.length - 1] ?? "";
  return SECRET_NAME.test(last) || path.includes("headers") || (path[0] === "mcp" && path[2] === "env");
}

/** A string that is exactly one reference, e.g. "{env:OPENAI_API_KEY}": safe to show. */
export function isPureReference(value: unknown): boolean {
  return typeof value === "string" && /^\{(env|file):[^}]+\}$/.test(value.trim());
}

/** `https://user:pass@host` -> `https://user:<redacted>@host`, anywhere in a string. */
export function redactUrlPasswords(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^/\s:@]+):[^@\s/]*@/gi, "$1:<redacted>@");
}
