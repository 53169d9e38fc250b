/**
 * A remote server that asks for OAuth and has no usable stored credentials. A run never opens a
 * browser or waits for a person to sign in: it fails to connect with this, saying what to run.
 */
export class NeedsSignInError extends Error {
  override name = "NeedsSignInError";
  /** Read by start-server.ts without importing this class (the check survives bundling into chunks). */
  readonly signIn = true;
  constructor(readonly server: string) {
    super(signInText(server));
  }
}

/** What the person is told to do. */
export function signInText(server: string): string {
  return `needs sign-in: run \`bosun mcp login ${server}\``;
}

/** Whether an error met while connecting is a NeedsSignInError. */
export function isSignIn(error: unknown): boolean {
  return (error as { signIn?: unknown } | undefined)?.signIn === true;
}
