/**
 * What a tool call would do, as the permission rules see it. A tool describes each call as a
 * list of requests; the rules decide each one (see permission/rules/evaluate.ts).
 */
export const ACTIONS = [
  "read",
  "edit",
  "shell",
  "external_directory",
  "web",
  "delegate",
  "mcp",
  "skill",
  "question",
  "job",
] as const;
export type Action = (typeof ACTIONS)[number];

export interface Request {
  action: Action;
  /**
   * read / edit / external_directory: an absolute path resolved with `resolveRequestPath`
   * shell: one simple command's normalized text. web: a host. delegate: an agent name.
   * mcp: `<server>/<tool>`. skill: a skill name. question: `person` (the one asked). job: a background job's id. A path action's resource may be `*`: a path
   * not known before the call runs (`echo x > "$F"`); only the rules that cover every path decide it.
   */
  resource: string;
  /**
   * shell: whether the analysis proved the command read-only. mcp: whether the server annotated
   * the tool read-only. Absent means not proven: treated as writing.
   */
  readOnly?: boolean;
  /** shell: the command is in no table (neither known read-only nor known writing): smart mode may ask a judge. */
  unclassified?: boolean;
  /**
   * shell: the command's prefix for an "always" approval (`git status`, `npm run test`), when its
   * first words are known; absent when they are not, and then nothing is offered for always.
   */
  prefix?: string;
}

/** What a call would do: its requests, or why it could not be fully described. */
export interface CallDescription {
  requests: Request[];
  /** Why the call could not be fully described (e.g. a shell line that does not parse): never allowed. */
  problem?: string;
}

/** Where a call runs: relative paths resolve against `cwd`; `workspace` is the folder the agent works in. */
export interface RequestContext {
  cwd: string;
  /** Absolute and resolved through symlinks. */
  workspace: string;
}
