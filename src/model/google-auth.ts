import { readFileSync } from "node:fs";

/** Where google-auth-library posts every service account's JWT grant: fixed in its code, whatever the key file says. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/**
 * The token endpoint a service-account key file names (`token_uri`), when it is not Google's own:
 * gcloud and Google's Python and Go libraries post the grant there; google-auth-library (which the
 * Vertex SDK uses) ignores it. Read from GOOGLE_APPLICATION_CREDENTIALS — the person's own
 * environment, never a repository's config. Undefined when unset, unreadable or not a service account.
 */
export function serviceAccountTokenUri(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  if (!file) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    // google-auth-library reads the file again and reports what is wrong with it.
    return undefined;
  }
  if (typeof key !== "object" || key === null) return undefined;
  const { type, token_uri: uri } = key as Record<string, unknown>;
  if (type !== "service_account" || typeof uri !== "string" || uri === GOOGLE_TOKEN_URL) return undefined;
  return /^https?:\/\//.test(uri) ? uri : undefined;
}

/**
 * Options for google-auth-library (the Vertex SDK's `googleAuthOptions`): its token requests go
 * through bosun's bounded fetch like every model request — never an unbounded wait on the token
 * endpoint — and a service account's grant goes to the `token_uri` its key file names.
 */
export function googleAuthOptions(fetch: typeof globalThis.fetch, env: NodeJS.ProcessEnv = process.env) {
  const tokenUri = serviceAccountTokenUri(env);
  const fetchImplementation: typeof globalThis.fetch = (input, init) =>
    fetch(tokenUri && String(input) === GOOGLE_TOKEN_URL ? tokenUri : input, init);
  return { clientOptions: { transporterOptions: { fetchImplementation } } };
}
