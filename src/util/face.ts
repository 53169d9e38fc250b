/**
 * Where the person reads a message, and so how a fix is named: `cli` names flags
 * (`--mode auto`, `--model`), `tui` the interactive session's commands (`/mode auto`, `/model`).
 * The wording is chosen where the message is built, never by rewriting it afterwards.
 */
export type Face = "cli" | "tui";
