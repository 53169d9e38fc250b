import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, rmSync, statfsSync, statSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { type LoadedConfig, loadConfig } from "../../config/load.js";
import { dataDir } from "../../config/paths.js";
import { listProviders, type Provider } from "../../model/providers.js";
import { sandboxProblem } from "../../permission/gate/sandbox.js";
import { withoutLoosening } from "../../permission/trust/project-trust.js";
import { checkDatabase } from "../../store/check.js";
import { databasePath } from "../../store/database.js";
import type { StoreFailure } from "../../store/failure.js";
import { ripgrepPath } from "../../tools/ripgrep.js";
import { json, out } from "../output.js";
import { loadForCommand } from "./config.js";
import { untrustedLoosening } from "./untrusted.js";

/**
 * `bosun doctor`: what is wrong with this machine's bosun, one line per check — the data folder,
 * the session database, the sandbox, ripgrep, each provider — each "ok" or a problem and its
 * fix. Exit 0 when every check is ok, 1 when one is not. It writes nothing but a probe file it
 * removes again, and never prints or sends a key.
 */

export interface Check {
  check: string;
  status: "ok" | "problem" | "skipped";
  detail: string;
  fix?: string;
}

/** How long a provider may take to answer anything at all. */
const REACH_TIMEOUT_MS = 5_000;

export async function doctor(options: { json?: boolean }): Promise<void> {
  const checks: Check[] = [dataFolder(dataDir()), database(databasePath())];
  let config: LoadedConfig | undefined;
  try {
    config = loadForCommand();
    checks.push({ check: "config", status: "ok", detail: "every layer reads and validates" });
    const untrusted = untrustedLoosening(config);
    if (untrusted) {
      // A repository's provider endpoint is a place bosun would send your conversation: doctor
      // contacts it only once you trust that config, as a run would use it only then.
      config = loadConfig({ cwd: process.cwd(), filterProject: withoutLoosening });
      checks.push({
        check: "project trust",
        status: "skipped",
        detail: `this repository's config would set ${untrusted.join(", ")}; left out (and not contacted) until you trust it`,
        fix: "bosun run --trust-project, or say yes when the interactive session asks",
      });
    }
  } catch (error) {
    checks.push({
      check: "config",
      status: "problem",
      detail: (error as Error).message,
      fix: "correct the file and key named (bosun config --origin shows where each key is set)",
    });
  }
  const [sandbox, ripgrep, ...providers] = await Promise.all([
    sandboxCheck(config),
    ripgrepCheck(),
    ...(config ? listProviders(config).map(providerCheck) : []),
  ]);
  checks.push(sandbox as Check, ripgrep as Check, ...providers);
  if (config && !(providers as Check[]).some((c) => c.status === "ok")) {
    // Each provider may be skipped for a good reason, but with none usable no task can run.
    checks.push({
      check: "providers",
      status: "problem",
      detail: "no provider is set up and reachable, so bosun cannot run a task",
      fix: "set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY, or add a local server as provider.<name> with a baseURL (see README: Models)",
    });
  }
  const problems = checks.filter((c) => c.status === "problem").length;
  if (options.json) json({ ok: problems === 0, checks });
  else {
    for (const c of checks) {
      out(
        c.status === "ok"
          ? `${c.check}: ok (${c.detail})`
          : `${c.check}: ${c.status === "skipped" ? "skipped" : "problem"}: ${c.detail}${c.fix ? ` — fix: ${c.fix}` : ""}`,
      );
    }
    out(problems === 0 ? "all checks passed" : `${problems} problem${problems === 1 ? "" : "s"} found`);
  }
  process.exitCode = problems === 0 ? 0 : 1;
}

/** The data folder: there (or creatable), a folder, yours, and writable in fact — a probe file is written and removed. */
function dataFolder(folder: string): Check {
  const check = "data folder";
  let stat: ReturnType<typeof statSync> | undefined;
  try {
    stat = statSync(folder);
  } catch {
    // Not there yet: bosun creates it on the first run, if it may.
  }
  if (stat && !stat.isDirectory()) {
    return {
      check,
      status: "problem",
      detail: `${folder} is not a folder`,
      fix: `move it aside, or point BOSUN_HOME elsewhere`,
    };
  }
  const uid = process.getuid?.();
  if (stat && uid !== undefined && stat.uid !== uid) {
    return {
      check,
      status: "problem",
      detail: `${folder} belongs to uid ${stat.uid}, not you (uid ${uid})`,
      fix: `chown -R ${uid} ${folder}, or point BOSUN_HOME at a folder of yours`,
    };
  }
  // Not there yet: the nearest folder that is must let bosun create it.
  const target = stat ? folder : nearestExisting(folder);
  const probe = join(target, `.bosun-doctor-${process.pid}`);
  try {
    const fd = openSync(probe, "w");
    try {
      // A few KiB, so a disk with no room left says so here rather than at the next run's first commit.
      writeSync(fd, Buffer.alloc(16 * 1024));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const full = code === "ENOSPC" || code === "EDQUOT";
    return {
      check,
      status: "problem",
      detail: full
        ? `${target}: the disk is full (${code})`
        : `${target} cannot be written (${code || (error as Error).message})`,
      fix: full
        ? `free some space on the disk holding ${folder}`
        : `make ${folder} writable (reading commands still work), or point BOSUN_HOME at a folder you can write`,
    };
  } finally {
    rmSync(probe, { force: true });
  }
  return {
    check,
    status: "ok",
    detail: `${folder}, writable${stat ? "" : " (created on the first run)"}, ${free(target)} free`,
  };
}

function nearestExisting(folder: string): string {
  let at = dirname(folder);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return at;
}

function free(folder: string): string {
  try {
    const { bavail, bsize } = statfsSync(folder);
    const bytes = bavail * bsize;
    return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
  } catch {
    return "unknown space";
  }
}

const FIXES: Record<StoreFailure, (path: string) => string> = {
  corrupt: (path) => `move it aside (mv ${path} ${path}.broken) and bosun starts a new one`,
  "read-only": (path) => `make ${dirname(path)} writable (reading commands still work)`,
  full: (path) => `free some space on the disk holding ${dirname(path)}`,
  "cannot-open": (path) => `check that ${dirname(path)} is a folder you can write`,
  busy: () => "try again when the other bosun process has finished",
  io: (path) => `check the disk holding ${dirname(path)}`,
};

function database(path: string): Check {
  const check = "database";
  const found = checkDatabase(path);
  switch (found.state) {
    case "missing":
      return { check, status: "ok", detail: `${path}: none yet (created on the first run)` };
    case "ok": {
      const schema =
        found.version === found.latest
          ? `schema ${found.version}`
          : `schema ${found.version} (migrated to ${found.latest} by the next command that writes)`;
      return { check, status: "ok", detail: `${path}: integrity ok, ${schema}, ${found.sessions} sessions` };
    }
    case "problem":
      return {
        check,
        status: "problem",
        detail: `${path}: ${found.problem}`,
        fix: found.failure ? FIXES[found.failure](path) : "upgrade bosun",
      };
  }
}

async function sandboxCheck(config: LoadedConfig | undefined): Promise<Check> {
  const check = "sandbox";
  if (config?.config.shell.sandbox === "off") {
    return { check, status: "ok", detail: 'off in config (shell.sandbox: "off"): commands run unconfined' };
  }
  const problem = await sandboxProblem();
  if (!problem) return { check, status: "ok", detail: "bubblewrap confines commands" };
  return {
    check,
    status: "problem",
    detail: `${problem}; proven commands ask instead and allowed ones run unmasked`,
    fix: 'install bubblewrap (Debian/Ubuntu: apt install bubblewrap; BOSUN_BWRAP names another binary), or set shell.sandbox to "off"',
  };
}

async function ripgrepCheck(): Promise<Check> {
  const check = "ripgrep";
  let path: string;
  try {
    path = await ripgrepPath();
  } catch (error) {
    return { check, status: "problem", detail: `not installed: ${(error as Error).message}`, fix: "reinstall bosun" };
  }
  const run = spawnSync(path, ["--version"], { encoding: "utf8", timeout: REACH_TIMEOUT_MS });
  if (run.status === 0) return { check, status: "ok", detail: `${run.stdout.split("\n")[0]} at ${path}` };
  const why = run.error ? ((run.error as NodeJS.ErrnoException).code ?? run.error.message) : `exit ${run.status}`;
  return {
    check,
    status: "problem",
    detail: `${path} does not run (${why}); the grep tool fails without it`,
    fix: process.env.BOSUN_RG ? "point BOSUN_RG at a ripgrep binary, or unset it" : "reinstall bosun (npm install)",
  };
}

/** Where a built-in provider's SDK goes when no baseURL is configured. */
const DEFAULT_URLS: Record<string, string> = {
  anthropic: "https://api.anthropic.com/v1",
  openai: "https://api.openai.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
};

/**
 * One provider: usable as configured, its credential there (never shown), and its endpoint
 * answering at all — a bounded GET of its model list with no key or configured header, where any
 * HTTP status counts.
 * A built-in nobody configured or gave a key is skipped, saying so.
 */
async function providerCheck(provider: Provider): Promise<Check> {
  const check = `provider ${provider.name}`;
  if (provider.problem) return { check, status: "problem", detail: provider.problem, fix: "see bosun models" };
  if (!provider.configured && !provider.credentials.present) {
    return { check, status: "skipped", detail: `not set up: no credential (${provider.credentials.source})` };
  }
  if (provider.credentials.needed && !provider.credentials.present) {
    return {
      check,
      status: "problem",
      detail: `no credential: ${provider.credentials.source}`,
      fix: `set the key it names (bosun models shows where each key comes from)`,
    };
  }
  const base = provider.baseURL ?? (provider.type ? DEFAULT_URLS[provider.type] : undefined);
  if (!base) return { check, status: "skipped", detail: "no endpoint to try" };
  // The model list: every one of these APIs has it, and answers it (401 without a key) cheaply.
  const url = `${base.replace(/\/+$/, "")}/models`;
  const credential = provider.credentials.needed ? `credential from ${provider.credentials.source}` : "no key needed";
  try {
    const response = await fetch(url, {
      method: "GET",
      redirect: "manual",
      signal: AbortSignal.timeout(REACH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { check, status: "ok", detail: `${url} answers (HTTP ${response.status}); ${credential}` };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === "TimeoutError"
        ? `no answer within ${REACH_TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return {
      check,
      status: "problem",
      detail: `cannot reach ${url} (${why})`,
      fix: `check that the server runs and provider.${provider.name}.baseURL is right, or the network`,
    };
  }
}
