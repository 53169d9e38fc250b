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

/**
 * `https://user:pass@host` -> `https://user:<redacted>@host`, anywhere in a string. The match is
 * anchored at each "://" and the scheme before it checked by hand: a pattern that begins with the
 * scheme is tried at every letter, each try running to the end of a long word (quadratic: a 40 kB
 * value took 2 s). Scheme, user and password runs of different URLs never overlap, so this is linear.
 */
export function redactUrlPasswords(text: string): string {
  return text.replace(/:\/\/([^/\s:@]+):[^@\s/]*@/g, (match: string, user: string, offset: number) =>
    hasScheme(text, offset) ? `://${user}:<redacted>@` : match,
  );
}

/** Whether a URL scheme (a letter, then letters, digits, "+", "." or "-") ends at `end`. */
function hasScheme(text: string, end: number): boolean {
  let letter = false;
  for (let i = end - 1; i >= 0 && SCHEME_CHAR.test(text.charAt(i)); i--) {
    if (LETTER.test(text.charAt(i))) letter = true;
  }
  return letter;
}

const SCHEME_CHAR = /[a-z0-9+.-]/i;
const LETTER = /[a-z]/i;
