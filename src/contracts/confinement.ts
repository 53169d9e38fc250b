/**
 * How a command bosun runs is confined, with bubblewrap (`bwrap`, permission/gate/sandbox.ts), where user namespaces allow it.
 *
 * `sealed` — for a command that runs only because the analysis proved it read-only (or by a
 * read-only agent), and for every command a repository brings (its hooks and MCP servers), so
 * that an analysis that is wrong — bash has a long tail of ways to run code — still cannot change
 * what it was not allowed to: the whole file system read-only but for the paths in `writable`,
 * the home folders, /tmp and /run replaced by empty ones (only `visible` shown again), no network
 * unless `network`, its own user (without capabilities, even for root), process, IPC and
 * host-name namespaces (so bosun's own environment, which holds keys, is out of sight).
 *
 * `masked` — for a command someone allowed (a rule, the person, --auto): it runs as they would
 * run it — the file system as it is, writable where they may write, the network — but in its own
 * process namespace, without the capabilities that could unmask a file, and with the files the
 * read rules protect shown empty: an allowed `cat *` still does not show a denied `.env`.
 */
export interface Confinement {
  kind: "sealed" | "masked";
  /** sealed: folders shown (read-only) under the hidden ones: the workspace first, then bosun's overflow files. */
  visible: string[];
  /**
   * sealed: files and folders bound writable — exactly what the rules let the call write (a new
   * file: its folder), or the workspace for a repository's command someone allowed. A writable
   * folder's `.git` stays read-only.
   */
  writable?: string[];
  /** sealed: keep the machine's network (a repository's command someone allowed by name). */
  network?: boolean;
  /** Files shown empty, read-only: ones the rules do not let the model read without asking (`.env`). */
  masked?: string[];
  /** masked: folders that stay read-only — bosun's own config and data, which no command may rewrite. */
  readOnly?: string[];
}
