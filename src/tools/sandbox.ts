import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A shell command run only because the analysis proved it read-only (or by a read-only agent)
 * runs confined, so that an analysis that is wrong — bash has a long tail of ways to run code —
 * still cannot change anything: the whole file system read-only, the home folders, /tmp and /run
 * replaced by empty ones (only the workspace and bosun's own files shown again), no network, its
 * own user (without capabilities, even for root), process, IPC and host-name namespaces (so
 * bosun's own environment, which holds keys, is out of sight).
 * Done with bubblewrap (`bwrap`), where user namespaces allow it.
 */
export interface Confinement {
  /** workspace-write: the workspace (not its .git) writable, for files the rules let the call write. */
  kind: "read-only" | "workspace-write";
  /** Folders shown (read-only) even though they lie under a hidden one: the workspace first, then bosun's overflow files. */
  visible: string[];
  /** Files in those folders shown empty: ones the rules do not let the model read without asking (`.env`). */
  masked?: string[];
}

/** Folders replaced by empty ones inside the sandbox: other people's and the user's files, sockets, temp files. */
function hiddenFolders(): string[] {
  const candidates = ["/home", "/root", "/tmp", "/run", "/var/run", "/var/tmp", "/mnt", "/media", homedir()];
  // Where they really are (/var/run is usually a link to /run): a mount needs a real folder.
  const real = candidates.flatMap((folder) => {
    try {
      return [realpathSync(folder)];
    } catch {
      return [];
    }
  });
  const unique = [...new Set(real)].filter((folder) => folder !== "/");
  // A folder inside another hidden one is hidden with it (and mounting on it would fail).
  return unique.filter((folder) => !unique.some((other) => other !== folder && folder.startsWith(`${other}/`)));
}

let empty: string | undefined;

/** An empty, read-only regular file to show in place of a hidden one (a device would read as "permission denied"). */
function emptyFile(): string {
  if (empty && existsSync(empty)) return empty;
  const dir = mkdtempSync(join(tmpdir(), "bosun-empty-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  empty = join(dir, "empty");
  writeFileSync(empty, "", { mode: 0o444 });
  return empty;
}

/** The bwrap arguments that run `argv` under `confinement`, from `cwd`. */
export function confinedArgv(confinement: Confinement, cwd: string, argv: string[]): string[] {
  const args = [
    "--die-with-parent",
    // A user namespace of its own and no capabilities, even when bosun runs as root: nothing in
    // it can remount, unmount, change the host name or make a namespace of its own.
    "--unshare-user",
    "--disable-userns",
    "--cap-drop",
    "ALL",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--unshare-net",
    "--unshare-pid",
    "--unshare-ipc",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    // Sysctls: the namespaced ones (the host name of its own UTS namespace) would be writable.
    "--ro-bind-try",
    "/proc/sys",
    "/proc/sys",
  ];
  for (const folder of hiddenFolders()) args.push("--tmpfs", folder);
  const [workspace, ...others] = confinement.visible;
  if (workspace !== undefined && existsSync(workspace)) {
    if (confinement.kind === "workspace-write") {
      args.push("--bind", workspace, workspace);
      // Git's config and hooks make programs run later: never writable from here.
      if (existsSync(`${workspace}/.git`)) args.push("--ro-bind", `${workspace}/.git`, `${workspace}/.git`);
    } else {
      args.push("--ro-bind", workspace, workspace);
    }
  }
  for (const folder of others) if (existsSync(folder)) args.push("--ro-bind", folder, folder);
  const masked = (confinement.masked ?? []).filter((file) => existsSync(file));
  if (masked.length > 0) {
    const empty = emptyFile();
    for (const file of masked) args.push("--ro-bind", empty, file);
  }
  args.push("--chdir", cwd, "--", ...argv);
  return args;
}

/** The bubblewrap program: `BOSUN_BWRAP` when set (another install), else `bwrap` on PATH. */
export function bwrapProgram(): string {
  return process.env.BOSUN_BWRAP || "bwrap";
}

let available: Promise<string | undefined> | undefined;

/**
 * Whether confinement works here: undefined when it does, else why not (no bwrap, no user
 * namespaces). Checked once per process, by confining `true`.
 */
export function sandboxProblem(): Promise<string | undefined> {
  available ??= new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(bwrapProgram(), confinedArgv({ kind: "read-only", visible: [] }, "/", ["true"]), {
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (error) {
      resolve(`bwrap cannot start: ${(error as Error).message}`);
      return;
    }
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", (error) =>
      resolve(
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? `${bwrapProgram()} (bubblewrap) is not installed`
          : error.message,
      ),
    );
    child.on("close", (code) =>
      resolve(code === 0 ? undefined : `bwrap does not work here: ${stderr.trim() || `exit ${code}`}`),
    );
  });
  return available;
}
