import { spawn } from "node:child_process";
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, realpathSync, unlinkSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { dataDir } from "../../config/paths.js";
import type { Confinement } from "../../contracts/confinement.js";

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

/**
 * An empty, read-only regular file to show in place of a hidden one (a device would read as
 * "permission denied"). It lives in bosun's data folder, not /tmp — nothing of bosun's is left
 * there, even after a kill — made once and checked at every use: a file that is no longer empty
 * (a command run unconfined wrote to it) is made again.
 */
function emptyFile(): string {
  const file = join(dataDir(), "empty");
  for (let attempt = 0; ; attempt++) {
    try {
      const info = lstatSync(file);
      if (info.isFile() && info.size === 0) return file;
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      closeSync(
        openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o444),
      );
      return file;
    } catch (error) {
      // Another bosun made it meanwhile: checked again above.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 2) throw error;
    }
  }
}

/**
 * Capabilities a masked command run by root must not keep: each could unmask a file or reach
 * around the mount namespace — mount and unmount (SYS_ADMIN), open files by handle
 * (DAC_READ_SEARCH), device nodes and raw I/O (MKNOD, SYS_RAWIO), other processes (SYS_PTRACE),
 * kernel code (SYS_MODULE, BPF, PERFMON), and the machine itself (SYS_BOOT).
 */
const MASKED_ROOT_DROPS = [
  "CAP_SYS_ADMIN",
  "CAP_DAC_READ_SEARCH",
  "CAP_MKNOD",
  "CAP_SYS_RAWIO",
  "CAP_SYS_PTRACE",
  "CAP_SYS_MODULE",
  "CAP_BPF",
  "CAP_PERFMON",
  "CAP_SYS_BOOT",
];

/** Devices a masked command may still use besides the basic ones (`--dev`): virtualization, FUSE, graphics. */
const MASKED_DEVICES = ["/dev/kvm", "/dev/fuse", "/dev/dri", "/dev/net/tun"];

/** The bwrap arguments that run `argv` under `confinement`, from `cwd`. */
export function confinedArgv(confinement: Confinement, cwd: string, argv: string[]): string[] {
  const args = confinement.kind === "masked" ? maskedArgs(confinement) : sealedArgs(confinement);
  const masked = (confinement.masked ?? []).filter((file) => existsSync(file));
  if (masked.length > 0) {
    const empty = emptyFile();
    for (const file of masked) args.push("--ro-bind", empty, file);
  }
  args.push("--chdir", cwd, "--", ...argv);
  return args;
}

function sealedArgs(confinement: Confinement): string[] {
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
    ...(confinement.network ? [] : ["--unshare-net"]),
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
  const hidden = hiddenFolders();
  for (const folder of hidden) args.push("--tmpfs", folder);
  if (confinement.network) {
    // Name resolution often lives under /run (systemd-resolved's stub): show that one folder.
    const resolver = resolverFolder();
    if (resolver && hidden.some((folder) => resolver.startsWith(`${folder}/`)))
      args.push("--ro-bind", resolver, resolver);
  }
  for (const folder of confinement.visible) if (existsSync(folder)) args.push("--ro-bind", folder, folder);
  for (const path of confinement.writable ?? []) {
    if (!existsSync(path)) continue;
    args.push("--bind", path, path);
    // Git's config and hooks make programs run later: never writable from here.
    if (existsSync(`${path}/.git`)) args.push("--ro-bind", `${path}/.git`, `${path}/.git`);
  }
  return args;
}

function maskedArgs(confinement: Confinement): string[] {
  const root = process.getuid?.() === 0;
  const readOnly = (confinement.readOnly ?? []).filter((folder) => existsSync(folder));
  return [
    "--die-with-parent",
    // Root keeps what an allowed command may need (file ownership, other users' files) but not
    // what could unmask; anyone else gets a user namespace without capabilities.
    ...(root
      ? MASKED_ROOT_DROPS.flatMap((cap) => ["--cap-drop", cap])
      : ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]),
    // Its own processes only: /proc/<bosun>/root would show the files unmasked.
    "--unshare-pid",
    "--bind",
    "/",
    "/",
    "--dev",
    "/dev",
    ...MASKED_DEVICES.flatMap((device) => ["--dev-bind-try", device, device]),
    "--proc",
    "/proc",
    // bosun's own state (saved approvals, the user's config) would let a command allow itself more.
    ...readOnly.flatMap((folder) => ["--ro-bind", folder, folder]),
  ];
}

/** The folder holding the resolver configuration /etc/resolv.conf leads to, if it is a link. */
function resolverFolder(): string | undefined {
  try {
    const real = realpathSync("/etc/resolv.conf");
    return real === "/etc/resolv.conf" ? undefined : dirname(real);
  } catch {
    return undefined;
  }
}

/** The bubblewrap program: `BOSUN_BWRAP` when set (another install), else `bwrap` on PATH. */
export function bwrapProgram(): string {
  return process.env.BOSUN_BWRAP || "bwrap";
}

const available = new Map<Confinement["kind"], Promise<string | undefined>>();
/**
 * Longest a trial run of bubblewrap may take. It takes milliseconds alone, but the kernel makes
 * and tears down network namespaces one at a time: with many confined commands starting together
 * on a loaded machine a trial run was seen to take over 30 s without being hung. The bound is the
 * shell's default timeout, so a probe never waits longer than the command it stands for would.
 */
const PROBE_TIMEOUT_MS = 120_000;

/**
 * Whether confinement of this kind works here: undefined when it does, else why not (no bwrap, no
 * user namespaces, a bind bwrap may not make). Checked once per process and kind, by confining
 * `true` — a masked command that could not start must not be every allowed command failing.
 */
export function sandboxProblem(kind: Confinement["kind"] = "sealed"): Promise<string | undefined> {
  let probe = available.get(kind);
  if (probe) return probe;
  probe = new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(bwrapProgram(), confinedArgv({ kind, visible: [] }, "/", ["true"]), {
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (error) {
      resolve(`bwrap cannot start: ${(error as Error).message}`);
      return;
    }
    // A probe that hangs must not hold every command: past the bound, confinement does not work
    // here. The timer is judged only after the I/O already waiting was read (setImmediate runs
    // after the poll phase), so a busy event loop does not mistake a finished probe for a hung one.
    let closed = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (closed) return;
          child.kill("SIGKILL");
          resolve(`bwrap did not finish a trial run within ${PROBE_TIMEOUT_MS / 1000} s`);
        }),
      PROBE_TIMEOUT_MS,
    );
    timer.unref();
    child.once("close", () => {
      closed = true;
      clearTimeout(timer);
    });
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
  available.set(kind, probe);
  return probe;
}
