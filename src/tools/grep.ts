import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { pathRequests } from "../permission/rules/call-requests.js";
import { ripgrepPath } from "./ripgrep.js";

const schema = z.strictObject({
  pattern: z.string().min(1).describe("Regex (ripgrep syntax)"),
  path: z.string().optional().describe("File or folder to search; default the workspace"),
  include: z.string().optional().describe("Only files matching this glob, e.g. *.ts"),
});

export type GrepInput = z.infer<typeof schema>;

/** Matching lines read before ripgrep is stopped; beyond it the count is a lower bound. */
const COLLECT_LIMIT = 20_000;
const STDERR_LIMIT = 4000;

export const grepTool: Tool<GrepInput> = {
  name: "grep",
  description: "Search file contents with a regex (ripgrep). Skips .gitignored files and .git. Lists path:line: text.",
  schema,
  kind: "read",
  requests: async (input, where) => pathRequests("read", input.path ?? ".", where),
  async execute(input, ctx): Promise<ToolResult> {
    const label = `grep /${shortPattern(input.pattern)}/${input.path ? ` ${input.path}` : ""}`;
    const fail = (output: string, short: string): ToolResult => ({
      output,
      isError: true,
      summary: `${label} → ${short}`,
    });

    const target = resolve(ctx.cwd, input.path ?? ".");
    try {
      statSync(target);
    } catch {
      return fail(`path not found: ${input.path ?? target}`, "path not found");
    }

    let rgPath: string;
    try {
      rgPath = await ripgrepPath();
    } catch (error) {
      return fail(`ripgrep is not available: ${error instanceof Error ? error.message : String(error)}`, "no ripgrep");
    }

    const args = [
      "--line-number",
      "--no-heading",
      "--color",
      "never",
      "--max-columns",
      "500",
      "--max-columns-preview",
      "--with-filename",
      "--null",
      "--hidden",
      "--no-require-git",
      ...(input.include ? ["--glob", input.include] : []),
      "--glob",
      "!.git",
      "--regexp",
      input.pattern,
      "--",
      relative(ctx.cwd, target) || ".",
    ];

    // Files the model may not read without asking (.env) are not searched, and said so whether
    // or not they would match: a note only when they match would tell what they hold.
    const skipped = (await ctx.protectedFiles?.()) ?? [];
    const excluded = skipped.filter((file) => file === target || file.startsWith(`${target}/`));
    const exclusions = excluded.flatMap((file) => ["--glob", `!/${relative(ctx.cwd, file)}`]);
    const run = await runRipgrep(rgPath, [...exclusions, ...args], ctx.cwd, ctx.signal);
    if (ctx.mayRead) {
      // Whatever else it finds that the rules do not let it show is dropped — silently, for the same reason.
      const allowed = new Map<string, boolean>();
      run.matches = run.matches.filter(({ path }) => {
        const absolute = resolve(ctx.cwd, path);
        let may = allowed.get(absolute);
        if (may === undefined) {
          may = ctx.mayRead?.(absolute) ?? true;
          allowed.set(absolute, may);
        }
        return may;
      });
    }
    if (excluded.length > 0) {
      const names = excluded.map((file) => relative(ctx.cwd, file) || file).sort();
      run.notes.push(
        `[not searched: ${names.join(", ")} — reading ${names.length === 1 ? "it" : "them"} needs approval (use read)]`,
      );
    }
    return renderGrep(run, label, ctx.cwd, ctx.limits.maxResults);
  },
};

/** Turns a ripgrep run into the tool result (exported for tests: some failures cannot be staged). */
export function renderGrep(run: RipgrepRun, label: string, cwd: string, maxResults: number): ToolResult {
  const fail = (output: string, short: string): ToolResult => ({
    output,
    isError: true,
    summary: `${label} → ${short}`,
  });
  if (run.cancelled) return fail("cancelled", "cancelled");
  if (run.startError) return fail(`could not run ripgrep: ${run.startError}`, "failed");

  // Group by file (ripgrep prints each file's lines together and in order), files sorted by path.
  const byFile = new Map<string, string[]>();
  for (const { path, rest } of run.matches) {
    const shown = relative(cwd, resolve(cwd, path)) || path;
    const numbered = /^(\d+):/.exec(rest);
    const line = numbered ? `${shown}:${numbered[1]}: ${rest.slice(numbered[0].length)}` : `${shown}: ${rest}`;
    const lines = byFile.get(shown);
    if (lines) lines.push(line);
    else byFile.set(shown, [line]);
  }
  const files = [...byFile.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const all = files.flatMap((file) => byFile.get(file) ?? []);
  const stderr = run.stderr.trim();
  const warning = stderr ? [`warning: ${stderr}`] : [];

  if (all.length === 0 && run.notes.length === 0) {
    if (run.exitCode !== 0 && run.exitCode !== 1) {
      return fail(stderr || `ripgrep failed (exit code ${run.exitCode})`, "error");
    }
    return {
      output: ["no matches", ...warning].join("\n"),
      summary: `${label} → no matches`,
      metadata: { matches: 0, files: 0 },
    };
  }

  const shown = all.slice(0, maxResults);
  const hidden = all.length - shown.length;
  const out = [...shown, ...run.notes];
  if (run.stopped) out.push(`[at least ${hidden} more matches not shown; narrow the pattern or path]`);
  else if (hidden > 0) out.push(`[${hidden} more matches not shown; narrow the pattern or path]`);
  out.push(...warning);

  const count = `${all.length}${run.stopped ? "+" : ""}`;
  return {
    output: out.join("\n"),
    summary: `${label} → ${count} ${all.length === 1 ? "match" : "matches"} in ${files.length} ${files.length === 1 ? "file" : "files"}`,
    metadata: { matches: all.length, files: files.length, truncated: hidden > 0 || run.stopped },
    keep: "head",
  };
}

export interface RipgrepRun {
  matches: { path: string; rest: string }[];
  /** Lines that are not matches, e.g. "binary file matches". */
  notes: string[];
  stderr: string;
  exitCode: number | null;
  /** Stopped after COLLECT_LIMIT matches. */
  stopped: boolean;
  cancelled: boolean;
  startError?: string;
}

function runRipgrep(rgPath: string, args: string[], cwd: string, signal: AbortSignal): Promise<RipgrepRun> {
  const run: RipgrepRun = { matches: [], notes: [], stderr: "", exitCode: null, stopped: false, cancelled: false };
  if (signal.aborted) return Promise.resolve({ ...run, cancelled: true });
  return new Promise((resolvePromise) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const onAbort = (): void => {
      run.cancelled = true;
      child.kill("SIGKILL");
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on("line", (raw) => {
      if (run.stopped) return;
      const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      const nul = text.indexOf("\0");
      if (nul < 0) {
        if (run.notes.length < 20) run.notes.push(text);
        return;
      }
      run.matches.push({ path: text.slice(0, nul), rest: text.slice(nul + 1) });
      if (run.matches.length >= COLLECT_LIMIT) {
        run.stopped = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (run.stderr.length < STDERR_LIMIT) run.stderr += chunk.slice(0, STDERR_LIMIT - run.stderr.length);
    });
    let settled = false;
    const settle = (code: number | null, error?: Error): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      run.exitCode = code;
      if (error) run.startError = error.message;
      resolvePromise(run);
    };
    child.on("error", (error) => settle(null, error));
    child.once("close", (code) => settle(code));
  });
}

function shortPattern(pattern: string): string {
  return pattern.length > 40 ? `${pattern.slice(0, 39)}…` : pattern;
}
