import { ENTRY_DEFAULTS } from "../../config/defaults.js";
import type { LoadedConfig } from "../../config/load.js";
import type { Answer, Holder, Reason } from "../../contracts/decisions.js";
import type { CallDescription } from "../../contracts/requests.js";
import type { ApprovalPrompt } from "../gate/approval.js";
import { type AuthorityContext, authorize } from "../gate/authorize.js";
import { type RepositoryGrant, repositoryGrant } from "../gate/confine.js";
import type { Hook } from "../gate/hooks.js";
import type { AlwaysRule } from "../rules/always.js";
import { alwaysOffer } from "../rules/always.js";
import { formatRequests, shellRequests } from "../rules/call-requests.js";
import { mapRuleSets } from "../rules/intersect.js";
import type { Rule } from "../rules/rules.js";

/**
 * Commands a repository's own `bosun.json` would have bosun run — its hooks and its MCP servers.
 * Whoever wrote that file (anyone, for a cloned repository) would otherwise run code on this
 * machine the moment bosun starts or calls a tool, in plan mode too. So each is judged like a
 * shell call first — by every rule layer except the project's own (a repository cannot approve
 * its own commands), the mode, saved approvals and the person — and runs only if that allows it.
 * Seat `project.command`. Hooks and servers from the user's own config need no such check.
 */
export interface ProjectCommand {
  kind: "hook" | "mcp";
  /** `hooks.pre_tool[0]` or `mcp.<name>`. */
  key: string;
  /**
   * What the answer is kept under: a server's key, a hook's file and key — two files of the
   * project layer (bosun.json, .claude/settings.json) may each have a `hooks.pre_tool[0]`, and a
   * user's hook has that key too.
   */
  id: string;
  command: string;
  /** A remote server's address: connecting is the request `web:<host>`, judged like a fetch. */
  url?: string;
  source: string;
  line?: number;
}

export type ProjectCommandAnswer = "run" | "skip";

/** Which of the repository's hooks an answer of seat project.command is about. */
export function hookId(hook: Pick<Hook, "source" | "key">): string {
  return `${hook.source}#${hook.key}`;
}

/** The project layer's hooks and MCP servers. */
export function projectCommands(config: LoadedConfig, hooks: readonly Hook[]): ProjectCommand[] {
  const out: ProjectCommand[] = hooks
    .filter((h) => h.fromProject)
    .map((h) => ({
      kind: "hook",
      key: h.key,
      id: hookId(h),
      command: h.command,
      source: h.source,
      ...(h.line ? { line: h.line } : {}),
    }));
  for (const [name, server] of Object.entries(config.config.mcp ?? {})) {
    if (!(server.enabled ?? ENTRY_DEFAULTS.mcp_server.enabled)) continue;
    const prefix = `mcp.${name}.`;
    const written = [...config.origins.entries()].find(
      ([key, origin]) => key.startsWith(prefix) && !key.startsWith(`${prefix}enabled`) && origin.layer === "project",
    );
    if (!written) continue;
    // A url server runs no program, but connecting sends its headers and, later, the model's
    // arguments to a host the repository chose, and its tools' annotations are its word: so
    // reaching it is judged too, as the request web:<host>.
    if (server.command === undefined) {
      if (!server.url) continue;
      out.push({
        kind: "mcp",
        key: `mcp.${name}`,
        id: `mcp.${name}`,
        command: server.url,
        url: server.url,
        source: written[1].file ?? written[1].source,
        ...(written[1].line ? { line: written[1].line } : {}),
      });
      continue;
    }
    out.push({
      kind: "mcp",
      key: `mcp.${name}`,
      id: `mcp.${name}`,
      command: [server.command, ...(server.args ?? [])].map(shellQuote).join(" "),
      source: written[1].file ?? written[1].source,
      ...(written[1].line ? { line: written[1].line } : {}),
    });
  }
  return out;
}

/**
 * Seat `project.command`: may this command from the repository's config run? Judged as the shell
 * line it is, without the project layer's rules; an ask goes to the person when one is attached
 * (allow once, always, deny) and is a skip otherwise. A skipped hook does not run (its verdicts
 * are the repository's, not the user's); a skipped MCP server is not started.
 */
export async function judgeProjectCommand(
  command: ProjectCommand,
  deps: {
    authority: AuthorityContext;
    prompt?: ApprovalPrompt;
    saveAlways: (rules: AlwaysRule[], tool: string) => void;
    signal: AbortSignal;
  },
): Promise<Answer<ProjectCommandAnswer> & { grant?: RepositoryGrant }> {
  const authority = withoutProjectRules(deps.authority);
  const description = command.url
    ? remoteRequests(command.url)
    : await shellRequests(command.command, { cwd: authority.cwd, workspace: authority.workspace });
  const permission = authorize(description, authority);
  const written: Reason = {
    rule: `${command.kind === "hook" ? "a hook" : "an MCP server"} the repository's config names`,
    detail: command.command,
    source: command.source,
    key: command.key,
    ...(command.line ? { line: command.line } : {}),
  };
  const requests: Reason = { rule: "requests", detail: formatRequests(description) };
  const answer = (holder: Holder, run: boolean, reasons: Reason[]): Answer<ProjectCommandAnswer> => ({
    holder,
    answer: run ? "run" : "skip",
    reasons: [...reasons, written, requests],
  });
  if (permission.answer === "allow")
    return { ...answer(permission.holder, true, permission.reasons), grant: repositoryGrant(permission) };
  if (permission.answer === "deny") return answer(permission.holder, false, permission.reasons);
  if (!deps.prompt) {
    const prefix = description.requests.find((r) => r.action === "shell" && r.prefix)?.prefix;
    const host = description.requests.find((r) => r.action === "web")?.resource;
    const fix = prefix ? `shell:${prefix} *` : host ? `web:${host}` : undefined;
    return answer("code", false, [
      {
        rule: "no person to ask",
        detail: `not run: nobody approved it${fix ? ` (to trust it, add --allow '${fix}' or a rule in your own config)` : ""}`,
        decisive: true,
      },
      ...permission.reasons.map(({ decisive: _, ...r }) => r),
    ]);
  }
  const reply = await deps.prompt.ask(
    {
      tool: command.kind === "hook" ? `hook ${command.key}` : `MCP server ${command.key.slice(4)}`,
      callId: command.key,
      input: { command: command.command },
      outcomes: permission.outcomes,
      always: alwaysOffer(permission.outcomes),
    },
    deps.signal,
  );
  if (reply.kind === "always") deps.saveAlways(reply.option.rules, command.key);
  const yes = reply.kind === "once" || reply.kind === "always";
  const decided = answer("person", yes, [
    { rule: yes ? `the person allowed it ${reply.kind}` : "the person denied it", decisive: true },
  ]);
  return yes ? { ...decided, grant: repositoryGrant("person") } : decided;
}

/** Reaching a remote server: web:<host>; an address that does not parse is described as a problem (never allowed). */
function remoteRequests(url: string): CallDescription {
  try {
    return { requests: [{ action: "web", resource: new URL(url).hostname }] };
  } catch {
    return { requests: [], problem: `not a URL: ${url}` };
  }
}

function withoutProjectRules(ctx: AuthorityContext): AuthorityContext {
  // Its `permission` and its agents' alike: a repository cannot approve its own commands.
  const strip = (layers: Rule[][]) => layers.map((rules) => rules.filter((r) => r.source.repository !== true));
  return { ...ctx, rules: mapRuleSets(ctx.rules, strip) };
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
