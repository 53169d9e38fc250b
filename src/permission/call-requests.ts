import { resolveRequestPath } from "./requests.js";
import { analyzeShell } from "./shell/analyze.js";

/** One thing a call would do, as it is shown and (later) judged: `read:/abs/path`, `shell:git status`. */
export interface DescribedRequest {
  action: string;
  resource: string;
  /** For shell commands: whether the analysis proved it read-only. */
  readOnly?: boolean;
}

export interface CallDescription {
  requests: DescribedRequest[];
  /** Why the call could not be fully described (e.g. a shell line that does not parse). */
  problem?: string;
}

/**
 * What a built-in tool call would do, as permission requests: paths resolved through symlinks,
 * shell lines split into their simple commands with the files they write. Recorded with every
 * `call.permission` decision, so `bosun why` shows exactly what was allowed or refused.
 */
export async function describeCall(
  tool: string,
  input: Record<string, unknown>,
  cwd: string,
): Promise<CallDescription> {
  const path = (key: string, fallback?: string) => {
    const value = typeof input[key] === "string" ? (input[key] as string) : fallback;
    return value === undefined ? undefined : safeResolve(value, cwd);
  };
  switch (tool) {
    case "read":
    case "list":
    case "glob":
    case "grep": {
      const target = path("path", ".");
      return target
        ? { requests: [{ action: "read", resource: target }] }
        : { requests: [], problem: "path cannot be resolved" };
    }
    case "edit":
    case "write": {
      const target = path("path");
      return target
        ? { requests: [{ action: "edit", resource: target }] }
        : { requests: [], problem: "path cannot be resolved" };
    }
    case "shell": {
      const command = typeof input.command === "string" ? input.command : "";
      const analysis = await analyzeShell(command, { cwd, workspace: cwd });
      return {
        requests: analysis.requests.map((r) => ({
          action: r.action,
          resource: r.resource,
          ...(r.readOnly !== undefined ? { readOnly: r.readOnly } : {}),
        })),
        ...(analysis.parsed ? {} : { problem: analysis.problem ?? "the command line does not parse" }),
      };
    }
    default:
      return { requests: [], problem: `no description for tool ${tool}` };
  }
}

/** `read:/w/a.txt, shell:git status (read-only), edit:/w/out.txt` */
export function formatRequests(description: CallDescription): string {
  const parts = description.requests.map(
    (r) => `${r.action}:${r.resource}${r.readOnly === undefined ? "" : r.readOnly ? " (read-only)" : " (writes)"}`,
  );
  if (description.problem) parts.push(`not fully described: ${description.problem}`);
  return parts.join(", ") || "nothing";
}

function safeResolve(path: string, cwd: string): string | undefined {
  try {
    return resolveRequestPath(path, cwd);
  } catch {
    return undefined;
  }
}
