/**
 * Errors that carry their exit code. The CLI prints `message` and exits with `exitCode`;
 * anything else that escapes is a runtime failure (exit 1).
 */
export class BosunError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flags, unknown or ambiguous session ids, bad files given by the person: exit 2. */
export class UsageError extends BosunError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A config layer that cannot be read, parsed or validated: exit 2, nothing written. */
export class ConfigError extends BosunError {
  constructor(message: string) {
    super(message, 2);
  }
}

export const EXIT = { ok: 0, failure: 1, usage: 2, stopped: 3 } as const;
