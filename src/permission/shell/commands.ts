/**
 * Which simple commands are read-only. A fixed table, argv-only (no parser, no file system): a
 * command is read-only only when this file says so and says why; anything it does not know is
 * writing. Commands that run other commands (`sudo`, `xargs`, `find -exec`, `bash -c`, `eval`)
 * report what they run as `nested`, so the analysis can look at those too.
 */

export interface Classification {
  readOnly: boolean;
  reason: string;
}

/** A command run by another command: an argv slice (`sudo rm f`), or shell text (`bash -c "..."`). */
export type Nested =
  | {
      kind: "argv";
      /** argv[from, to) is the inner command, its first `assigns` words being `NAME=value` (from `env`). */
      from: number;
      to: number;
      assigns: number;
      /** Index of a word naming the directory the inner command runs in (`env -C dir`). */
      cwd?: number;
      /**
       * Text replaced by input before the inner command runs (`{}` of `find -exec`, `xargs -I R`):
       * words holding it are not known. `pathOnly` when the replacement is a found path, which
       * cannot be an option (`find`); otherwise it could be anything (`xargs` reads it from input).
       */
      placeholder?: { text: string; pathOnly: boolean };
      /** The runner appends input words to the inner command (`xargs` without `-I`): unknown arguments. */
      appends?: boolean;
      /**
       * The inner command runs in some folder below the current one (`find -execdir`): paths are
       * judged from here, but which repository a git command would use is not known.
       */
      below?: boolean;
    }
  | {
      kind: "script";
      /** argv[from, to) joined by spaces is shell text; `afterEquals` takes the text after the first `=` (alias). */
      from: number;
      to: number;
      afterEquals?: boolean;
      /** The text runs in this shell (`eval`, a trap, an alias), not in a child: it can change this shell. */
      current?: boolean;
    };

export interface Inspection extends Classification {
  /** Commands this one runs. */
  nested: Nested[];
  /** When true, the command is read-only only if everything it runs is (`timeout 5 ls`); sudo is never. */
  transparent: boolean;
  /** Indices of words naming files the command writes (`tee f`, `find -fprint f`). */
  writes: number[];
  /**
   * Files the command reads or writes that no word of its own names (`sed '1r f'`, `xargs -a f`):
   * literal paths relative to its working directory, or `*` for any file.
   */
  files?: { reads: string[]; writes: string[] };
}

export const UNKNOWN_REASON = "unknown command: treated as writing";

/** Directories whose programs are taken by their base name (`/usr/bin/ls` is `ls`). */
const SYSTEM_BIN = new Set(["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"]);

/**
 * Classifies one simple command by its words (after quote removal). `risky[i]` marks a word whose
 * value is not known before it runs or that the shell may split or expand (it could be an option
 * such as `-delete`); commands whose behaviour depends on their options are writing then.
 */
export function classifyCommand(argv: string[], risky: readonly boolean[] = []): Classification {
  return classifyDeep(argv, risky, 0);
}

function classifyDeep(argv: string[], risky: readonly boolean[], depth: number): Classification {
  const info = inspectCommand(argv, risky);
  if (info.nested.length === 0 || !info.readOnly) return { readOnly: info.readOnly, reason: info.reason };
  const name = argv[0] ?? "";
  for (const n of info.nested) {
    if (n.kind === "script") {
      return { readOnly: false, reason: `${name}: runs shell code given as text (analyze it with analyzeShell)` };
    }
    if (depth >= 16) return { readOnly: false, reason: `${name}: commands nested too deeply` };
    const words = argv.slice(n.from + n.assigns, n.to);
    const flags = words.map((_, k) => risky[n.from + n.assigns + k] ?? false);
    const placeholder = n.placeholder;
    if (placeholder && !placeholder.pathOnly) {
      words.forEach((w, k) => {
        if (w.includes(placeholder.text)) flags[k] = true;
      });
    }
    if (n.appends) {
      words.push("");
      flags.push(true);
    }
    for (const a of argv.slice(n.from, n.from + n.assigns)) {
      const eq = a.indexOf("=");
      if (!harmlessVariable(a.slice(0, eq), a.slice(eq + 1))) {
        return { readOnly: false, reason: `${name}: ${unsafeVariableReason(a.slice(0, eq))}` };
      }
    }
    if (words.length === 0) continue;
    const inner = classifyDeep(words, flags, depth + 1);
    if (!inner.readOnly) return { readOnly: false, reason: `${name} runs ${words[0]}: ${inner.reason}` };
  }
  return { readOnly: info.readOnly, reason: info.reason };
}

function result(readOnly: boolean, reason: string, extra: Partial<Inspection> = {}): Inspection {
  return { readOnly, reason, nested: [], transparent: false, writes: [], ...extra };
}
const ro = (reason: string, extra?: Partial<Inspection>): Inspection => result(true, reason, extra);
const rw = (reason: string, extra?: Partial<Inspection>): Inspection => result(false, reason, extra);

/** The full classification: own readOnly, reason, and what the command runs or writes. */
export function inspectCommand(argv: string[], risky: readonly boolean[] = []): Inspection {
  const first = argv[0];
  if (first === undefined) return ro("no command");
  if (risky[0]) return rw("the command name is not known before it runs");
  let name = first;
  if (first.includes("/")) {
    const slash = first.lastIndexOf("/");
    if (!SYSTEM_BIN.has(first.slice(0, slash))) return rw(`${first}: runs a program by path: treated as writing`);
    name = first.slice(slash + 1);
  }
  const args = argv.slice(1);
  const argRisky = risky.slice(1);
  const anyRisky = argRisky.some(Boolean);
  const coded = args.find((a, i) => !argRisky[i] && SUBSCRIPT_CODE.test(a));
  if (coded !== undefined) {
    return rw(`${name}: ${JSON.stringify(coded)} holds a command in an array subscript, which bash may run`);
  }

  const listed = readsFileList(name, args, argRisky) ? { files: { reads: ["*"], writes: [] } } : {};
  const simple = READ_ONLY[name];
  if (simple !== undefined) {
    if (anyRisky && !ARG_INSENSITIVE.has(name)) {
      return rw(`${name}: a non-literal argument could change what it does`, listed);
    }
    return ro(`${name}: ${simple}`, listed);
  }
  const special = SPECIAL[name];
  if (special) {
    const inspection = special(name, args, argRisky);
    return listed.files ? { ...inspection, files: inspection.files ?? listed.files } : inspection;
  }
  const writing = WRITING[name];
  if (writing !== undefined) return rw(`${name}: ${writing}`);
  const interpreter = interpreterName(name);
  if (interpreter) return versionOnly(name, args, `${name}: runs ${interpreter} code: arbitrary effects`);
  return rw(UNKNOWN_REASON);
}

function interpreterName(name: string): string | null {
  if (/^python[0-9.]*$/.test(name) || name === "pypy" || name === "pypy3") return "Python";
  if (name === "node" || name === "nodejs" || name === "deno" || name === "bun") return "JavaScript";
  if (name === "ruby" || name === "irb") return "Ruby";
  if (/^perl[0-9.]*$/.test(name)) return "Perl";
  if (name === "php" || name === "lua" || name === "luajit" || name === "Rscript" || name === "julia") return name;
  if (name === "java" || name === "osascript" || name === "tclsh" || name === "expect") return name;
  return null;
}

/** `X --version` (and the few spellings each tool knows) only prints a version; anything else is `otherwise`. */
function versionOnly(name: string, args: string[], otherwise: string): Inspection {
  if (args.length === 1 && isVersionFlag(name, args[0] as string)) return ro(`${name}: prints its version`);
  return rw(otherwise);
}

/** Flags that only print a version or help. `-v` is a version flag for some tools only: `python -v` is verbose mode. */
function isVersionFlag(name: string, flag: string): boolean {
  if (flag === "--version" || flag === "-V" || flag === "--help" || flag === "-h") return true;
  return flag === "-v" && SHORT_V_VERSION.has(name);
}
const SHORT_V_VERSION = new Set(["node", "nodejs", "npm", "pnpm", "yarn", "bun", "deno", "ruby", "perl", "php"]);

/**
 * Plain read-only commands: why each one is read-only. Every entry here and every read-only answer
 * of SPECIAL is a promise; audited for issue 11 for options that write, run programs, reach the
 * network or set system state, and for arguments that do (GNU coreutils, grep, findutils, bash
 * builtins): none of these has such an option except where SPECIAL or FILE_LISTS says so (date
 * operands and -s, hostname names and -F, ulimit values, sort -o/--compress-program, tree -o,
 * file -C, rg --pre/--hostname-bin, less -o/-k/+cmd, man -P/-H, info -o, tar -I/-F/host:file,
 * xxd and uniq output operands, git's, sed's, awk's, find's, xargs's); wc/du/sort --files0-from,
 * `*sum -c` and `file -f` read files a list names (read:*).
 */
const READ_ONLY: Record<string, string> = {
  ls: "lists files",
  dir: "lists files",
  vdir: "lists files",
  cat: "prints files",
  tac: "prints files",
  nl: "prints files",
  head: "prints the start of files",
  tail: "prints the end of files",
  wc: "counts lines, words and bytes",
  grep: "searches files",
  egrep: "searches files",
  fgrep: "searches files",
  zgrep: "searches files",
  zcat: "prints compressed files",
  bzcat: "prints compressed files",
  xzcat: "prints compressed files",
  stat: "prints file metadata",
  du: "measures disk usage",
  df: "reports free disk space",
  pwd: "prints the working directory",
  echo: "prints its arguments",
  which: "locates commands",
  whereis: "locates commands",
  type: "describes commands",
  printenv: "prints the environment",
  whoami: "prints the user",
  id: "prints user and groups",
  groups: "prints groups",
  uname: "prints system information",
  arch: "prints the machine architecture",
  nproc: "prints the processor count",
  uptime: "prints the uptime",
  free: "prints memory use",
  pgrep: "lists processes",
  tty: "prints the terminal",
  locale: "prints locale settings",
  getconf: "prints system settings",
  diff: "compares files",
  cmp: "compares files",
  comm: "compares sorted files",
  cut: "selects fields",
  tr: "translates characters",
  jq: "filters JSON",
  basename: "prints a name",
  dirname: "prints a directory name",
  realpath: "resolves paths",
  readlink: "prints link targets",
  od: "dumps files",
  hexdump: "dumps files",
  strings: "prints strings in files",
  md5sum: "computes checksums",
  sha1sum: "computes checksums",
  sha224sum: "computes checksums",
  sha256sum: "computes checksums",
  sha384sum: "computes checksums",
  sha512sum: "computes checksums",
  shasum: "computes checksums",
  b2sum: "computes checksums",
  cksum: "computes checksums",
  true: "does nothing",
  false: "does nothing",
  ":": "does nothing",
  seq: "prints numbers",
  expr: "evaluates an expression",
  sleep: "waits",
  column: "formats columns",
  fold: "wraps lines",
  fmt: "formats text",
  paste: "merges lines",
  join: "joins lines",
  rev: "reverses lines",
  expand: "converts tabs",
  unexpand: "converts spaces",
  cd: "changes the working directory",
  pushd: "changes the working directory",
  popd: "changes the working directory",
  dirs: "lists the directory stack",
  exit: "exits the shell",
  return: "returns from a function",
  break: "leaves a loop",
  continue: "continues a loop",
  shift: "shifts arguments",
  set: "sets shell options",
  shopt: "sets shell options",
  umask: "sets the file mode mask",
  times: "prints process times",
  caller: "prints the call stack",
  help: "prints help",
  whatis: "describes commands",
  apropos: "searches manual pages",
  eza: "lists files",
  exa: "lists files",
  unalias: "removes aliases",
};

/** Read-only whatever their arguments: no option writes or runs anything. */
const ARG_INSENSITIVE = new Set([
  "ls",
  "dir",
  "vdir",
  "cat",
  "tac",
  "nl",
  "head",
  "tail",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "zcat",
  "bzcat",
  "xzcat",
  "ag",
  "stat",
  "du",
  "df",
  "pwd",
  "echo",
  "which",
  "whereis",
  "type",
  "printenv",
  "diff",
  "cmp",
  "comm",
  "cut",
  "tr",
  "jq",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "strings",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "shasum",
  "cksum",
  "true",
  "false",
  ":",
  "seq",
  "expr",
  "sleep",
  "cd",
  "pushd",
  "popd",
  "exit",
  "return",
  "shift",
]);

/** Plain writing commands: what each one changes. */
const WRITING: Record<string, string> = {
  rm: "deletes files",
  rmdir: "deletes directories",
  unlink: "deletes files",
  shred: "destroys files",
  mv: "moves files",
  cp: "copies files",
  install: "copies files",
  rsync: "copies files",
  scp: "copies files",
  mkdir: "creates directories",
  touch: "creates or changes files",
  chmod: "changes permissions",
  chown: "changes ownership",
  chgrp: "changes ownership",
  chattr: "changes file attributes",
  ln: "creates links",
  dd: "writes files or devices",
  truncate: "changes file sizes",
  mkfifo: "creates files",
  mknod: "creates files",
  patch: "changes files",
  kill: "signals processes",
  killall: "signals processes",
  pkill: "signals processes",
  reboot: "restarts the machine",
  shutdown: "stops the machine",
  systemctl: "controls services",
  service: "controls services",
  crontab: "changes scheduled jobs",
  at: "schedules commands",
  docker: "controls containers",
  podman: "controls containers",
  kubectl: "controls a cluster",
  make: "runs build recipes: arbitrary commands",
  cmake: "runs a build",
  ninja: "runs a build",
  gcc: "compiles and writes files",
  "g++": "compiles and writes files",
  cc: "compiles and writes files",
  clang: "compiles and writes files",
  rustc: "compiles and writes files",
  javac: "compiles and writes files",
  tsc: "compiles and writes files",
  wget: "downloads files",
  ssh: "runs commands on another machine",
  sudo: "runs commands as another user",
  doas: "runs commands as another user",
  su: "runs commands as another user",
  apt: "installs or removes packages",
  "apt-get": "installs or removes packages",
  dpkg: "installs or removes packages",
  yum: "installs or removes packages",
  dnf: "installs or removes packages",
  apk: "installs or removes packages",
  brew: "installs or removes packages",
  npx: "downloads and runs a package",
  pnpx: "downloads and runs a package",
  bunx: "downloads and runs a package",
  source: "runs a script file in this shell",
  ".": "runs a script file in this shell",
  vi: "edits files",
  vim: "edits files",
  nvim: "edits files",
  nano: "edits files",
  emacs: "edits files",
  code: "opens an editor",
  open: "opens files with other programs",
  "xdg-open": "opens files with other programs",
  mount: "changes mounts",
  umount: "changes mounts",
  chroot: "runs commands in another root",
  nc: "opens network connections",
  telnet: "opens network connections",
  ftp: "transfers files",
  sftp: "transfers files",
  zip: "writes archives",
  gzip: "compresses files in place",
  gunzip: "decompresses files in place",
  bzip2: "compresses files in place",
  xz: "compresses files in place",
  enable: "loads shell builtins",
  fc: "re-runs history commands",
  disown: "detaches jobs",
  hostnamectl: "changes system settings",
  "update-alternatives": "changes system settings",
  // System state: the clock, names, the kernel, devices, the network, terminals. Known (not
  // unknown), so smart mode's judge is never asked about them.
  hwclock: "reads or sets the hardware clock",
  timedatectl: "changes the clock and time zone",
  chronyc: "controls the time service",
  ntpdate: "sets the clock from the network",
  sysctl: "changes kernel settings (-w, -p, NAME=value)",
  ip: "changes network interfaces, addresses and routes",
  ifconfig: "changes network interfaces",
  route: "changes routes",
  arp: "changes the neighbour table",
  iptables: "changes the firewall",
  ip6tables: "changes the firewall",
  nft: "changes the firewall",
  ethtool: "changes network devices",
  nmcli: "controls the network manager",
  resolvectl: "changes name resolution",
  localectl: "changes the system locale",
  loginctl: "controls sessions",
  setterm: "changes terminal settings",
  stty: "changes terminal settings",
  setfont: "changes the console font",
  loadkeys: "changes the keyboard map",
  dmesg: "reads or clears the kernel log (-C, -c, -n)",
  swapon: "changes swap space",
  swapoff: "changes swap space",
  modprobe: "loads kernel modules",
  insmod: "loads kernel modules",
  rmmod: "unloads kernel modules",
  rfkill: "switches radios",
  // The network: even a lookup carries its name (and whatever is hidden in it) to a server.
  ping: "reaches the network",
  ping6: "reaches the network",
  host: "reaches the network (DNS)",
  dig: "reaches the network (DNS)",
  nslookup: "reaches the network (DNS)",
  getent: "may reach the network (DNS, LDAP)",
  whois: "reaches the network",
  traceroute: "reaches the network",
  tracepath: "reaches the network",
  mtr: "reaches the network",
  socat: "opens network connections",
  ncat: "opens network connections",
  netcat: "opens network connections",
};

type Special = (name: string, args: string[], risky: boolean[]) => Inspection;

const SPECIAL: Record<string, Special> = {
  find,
  sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  git,
  tee,
  xargs,
  env,
  sudo: sudoLike,
  doas: sudoLike,
  su,
  nohup: (n, a, r) => wrapper(n, a, r, { flags: [], values: [] }),
  time: (n, a, r) => wrapper(n, a, r, { flags: ["-p"], values: [] }),
  builtin: (n, a, r) => wrapper(n, a, r, { flags: [], values: [] }),
  setsid: (n, a, r) => wrapper(n, a, r, { flags: ["-c", "-f", "-w", "--ctty", "--fork", "--wait"], values: [] }),
  exec: (n, a, r) =>
    wrapper(n, a, r, { flags: ["-c", "-l"], values: ["-a"], alone: "applies redirections to the shell" }),
  stdbuf: (n, a, r) =>
    wrapper(n, a, r, { flags: [], values: ["-i", "-o", "-e", "--input", "--output", "--error"], attached: true }),
  nice: niceCommand,
  timeout: timeoutCommand,
  ionice,
  command: commandBuiltin,
  eval: (_n, a) =>
    a.length === 0
      ? ro("eval: nothing to evaluate")
      : ro("eval: runs its arguments as shell code", {
          nested: [{ kind: "script", from: 1, to: a.length + 1, current: true }],
          transparent: true,
        }),
  trap,
  alias,
  watch,
  bash: shell,
  sh: shell,
  zsh: shell,
  dash: shell,
  ksh: shell,
  mksh: shell,
  ash: shell,
  declare: declaration,
  typeset: declaration,
  export: declaration,
  local: declaration,
  readonly: declaration,
  less: pager,
  more: pager,
  ps: (n, a, r) =>
    r.some(Boolean)
      ? rw(`${n}: a non-literal argument`)
      : a.some((x) => !x.startsWith("-") && /e/.test(x))
        ? rw(`${n} e: shows processes' environments, which hold keys`)
        : ro(`${n}: lists processes`),
  jobs: (n, a, r) =>
    a.some((x, i) => r[i] || /^-[a-zA-Z]*x/.test(x)) ? rw(`${n} -x: runs a command`) : ro(`${n}: lists jobs`),
  wait: (n, a, r) =>
    a.some((x, i) => r[i] || /^-[a-zA-Z]*p/.test(x))
      ? rw(`${n} -p: sets a variable by name`)
      : ro(`${n}: waits for jobs`),
  unset: (n, a, r) =>
    a.some((x, i) => r[i] || (x.includes("[") && !/^[A-Za-z_][A-Za-z0-9_]*\[\d+\]$/.test(x)))
      ? rw(`${n}: a name known only when it runs, or a subscript bash evaluates`)
      : ro(`${n}: unsets variables`),
  date: dateCommand,
  tree: (n, a, r) =>
    optionGuard(n, a, r, "lists files", { short: /^-[a-zA-Z]*o/, long: ["output"] }, "writes its listing to a file"),
  file: (n, a, r) =>
    optionGuard(
      n,
      a,
      r,
      "identifies file types",
      { short: /^-[a-zA-Z]*C/, long: ["compile"] },
      "compiles a magic file",
    ),
  hash: (n, a, r) =>
    optionGuard(n, a, r, "lists remembered commands", { short: /^-[a-z]*p/ }, "changes where a command is found"),
  mapfile: setter,
  readarray: setter,
  read: setter,
  printf: setter,
  getopts: setter,
  let: (n) => rw(`${n}: evaluates arithmetic, which runs code hidden in variables' values`),
  test: testCommand,
  "[": testCommand,
  man: (n, a, r) =>
    optionGuard(
      n,
      a,
      r,
      "prints manual pages",
      {
        short: /^-[a-zA-Z]*[PHpTtZCX]/,
        long: ["pager", "html", "preprocessor", "troff", "troff-device", "ditroff", "gxditview", "config-file"],
      },
      "runs a program",
    ),
  info: (n, a, r) =>
    optionGuard(
      n,
      a,
      r,
      "prints manual pages",
      { short: /^-[a-zA-Z]*o/, long: ["output", "dribble"] },
      "writes a file",
    ),
  ag: (n, a, r) => optionGuard(n, a, r, "searches files", { long: ["pager"] }, "runs a pager program"),
  bat: (n, a, r) =>
    a.includes("cache")
      ? rw(`${n} cache: writes its cache`)
      : optionGuard(n, a, r, "prints files", { long: ["pager"] }, "runs a pager program"),
  sort: (n, a, r) =>
    optionGuard(
      n,
      a,
      r,
      "sorts lines",
      { short: /^-[a-zA-Z]*o/, long: ["output", "compress-program", "temporary-directory"] },
      "writes a file or runs a program",
    ),
  rg: (n, a, r) =>
    optionGuard(
      n,
      a,
      r,
      "searches files",
      { long: ["pre", "hostname-bin"], exact: true },
      "runs a program (--pre, --hostname-bin)",
    ),
  uniq: (n, a, r) => positionalGuard(n, a, r, "filters repeated lines", 1, "writes its second file argument"),
  xxd: (n, a, r) => positionalGuard(n, a, r, "dumps files", 1, "writes its second file argument"),
  hostname: hostnameCommand,
  dnsdomainname: hostnameCommand,
  domainname: hostnameCommand,
  nisdomainname: hostnameCommand,
  ypdomainname: hostnameCommand,
  ulimit: (n, a, r) =>
    !r.some(Boolean) && a.every((x) => /^-[a-zA-Z]+$/.test(x))
      ? ro(`${n}: prints resource limits`)
      : rw(`${n}: sets resource limits for the commands after it (a core file size lets a crash write a file)`),
  history: (_n, a) => (a.length === 0 ? ro("history: lists history") : rw("history: changes history or its file")),
  fd: fdCommand,
  fdfind: fdCommand,
  tar: (n, a, r) =>
    !r.some(Boolean) && isTarList(a) ? ro(`${n}: lists an archive`) : rw(`${n}: writes files or runs programs`),
  // Listing only: the mode option first, then the archive and member names, no other option
  // (`unzip -q a.zip -x -l` extracts, `-l` being a member name after -x).
  unzip: (n, a, r) =>
    !r.some(Boolean) && /^-[ltZv]$/.test(a[0] ?? "") && a.slice(1).every((x) => !x.startsWith("-"))
      ? ro(`${n}: lists an archive`)
      : rw(`${n}: writes files`),
  curl,
  npm: packageManager,
  pnpm: packageManager,
  yarn: packageManager,
  bun: packageManager,
  pip: pip,
  pip3: pip,
  cargo: (n, a) => versionOnly(n, a, `${n}: builds, installs or runs code`),
  go: goCommand,
  rustup: (n, a) => versionOnly(n, a, `${n}: installs toolchains`),
  deno: (n, a) => versionOnly(n, a, `${n}: runs JavaScript code: arbitrary effects`),
};

/**
 * `test` / `[`: read-only, except where bash evaluates an operand as arithmetic (`-eq`, `-lt`, ...)
 * or as a name (`-v`): a variable's value, or a literal name, may hold `a[$(cmd)]`. Comparing
 * literal whole numbers is fine; a non-literal word is fine only as the operand of a file or
 * string test (`-f "$f"`, `"$a" = "$b"`), where it cannot turn into an arithmetic operator.
 */
/**
 * `date`: prints, unless it sets the system clock: `-s`/`--set`, or an operand that is not a
 * `+FORMAT` (`date 0101000023`, the POSIX way). Values of -d, -f, -r, -I are not operands.
 */
function dateCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const sets = `${name}: sets the system clock`;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal argument could set the clock`);
    if (a === "--") {
      if (args.slice(i + 1).some((x, k) => risky[i + 1 + k] || !x.startsWith("+"))) return rw(sets);
      break;
    }
    if (a.startsWith("--")) {
      if (isLongOption(a, ["set"])) return rw(sets);
      if (isLongOption(a, ["date", "file", "reference"]) && !a.includes("=")) i++;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k] as string;
        if (c === "s") return rw(sets);
        if (c === "I") break; // -I[FMT]: an optional value, attached
        if (c === "d" || c === "f" || c === "r") {
          if (k === a.length - 1) i++;
          break;
        }
      }
      continue;
    }
    if (!a.startsWith("+")) return rw(sets);
  }
  return ro(`${name}: prints the date`);
}

/**
 * hostname and its other names: only the options that print (`-a -A -d -f -i -I -s -y`, their long
 * names, version and help); a name, `-F file`/`--file`, `-b` set the host or domain name.
 */
function hostnameCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const prints =
    /^(-[aAdfiIsyVh]+|--(alias|all-fqdns|domain|fqdn|long|ip-address|all-ip-addresses|short|yp|nis|version|help))$/;
  if (args.every((a, i) => !risky[i] && prints.test(a))) return ro(`${name}: prints the host or domain name`);
  return rw(`${name}: sets the host or domain name (an operand, -F/--file, -b)`);
}

/**
 * Options that make a command read files named inside another file (`wc --files0-from=list`,
 * `sha256sum -c sums`, `file -f names`): the list is an operand, the files it names are not
 * known before it runs, so `read:*`.
 */
const FILE_LISTS: Record<string, { short?: RegExp; long: string[] }> = {
  wc: { long: ["files0-from"] },
  du: { long: ["files0-from"] },
  sort: { long: ["files0-from"] },
  file: { short: /^-[a-zA-Z]*f/, long: ["files-from"] },
  md5sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha1sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha224sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha256sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha384sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha512sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  b2sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  shasum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  cksum: { long: ["check"] },
};

/** Whether `args` hold one of `name`'s file-list options (see FILE_LISTS); a risky word may be one. */
function readsFileList(name: string, args: string[], risky: boolean[]): boolean {
  const spec = FILE_LISTS[name];
  if (!spec) return false;
  return args.some(
    (a, i) =>
      risky[i] ||
      (a.startsWith("--") ? isLongOption(a, spec.long) : a.startsWith("-") && (spec.short?.test(a) ?? false)),
  );
}

function testCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const literal = (i: number) => risky[i] !== true;
  const arithmetic = /^-(eq|ne|lt|le|gt|ge)$/;
  const strings = new Set(["=", "==", "!=", "<", ">", "-nt", "-ot", "-ef"]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (literal(i) && a === "-v") return rw(`${name} -v: bash evaluates a name's subscript, which can run code`);
    if (literal(i) && arithmetic.test(a)) {
      const operands = [i - 1, i + 1];
      if (operands.some((k) => !literal(k) || !/^-?\d+$/.test(args[k] ?? ""))) {
        return rw(`${name} ${a}: bash evaluates the operands as arithmetic, which can run code hidden in a value`);
      }
    }
    if (!literal(i)) {
      const before = args[i - 1];
      const after = args[i + 1];
      const unary = before !== undefined && literal(i - 1) && /^-[a-zA-Z]$/.test(before) && !arithmetic.test(before);
      const stringOperand =
        (before !== undefined && literal(i - 1) && strings.has(before)) ||
        (after !== undefined && literal(i + 1) && strings.has(after));
      if (!unary && !stringOperand) return rw(`${name}: a non-literal word could be an arithmetic operator`);
    }
  }
  return ro(`${name}: evaluates a condition`);
}

/**
 * Whether `arg` is the long option `--<name>` or, as getopt_long, git and curl accept, any
 * unambiguous-looking abbreviation of it (`--outp=f` is `--output=f`). Every prefix counts:
 * which ones a program rejects as ambiguous depends on its other options, so bosun does not guess.
 */
export function isLongOption(arg: string, names: readonly string[], exact = false): boolean {
  if (!arg.startsWith("--") || arg === "--") return false;
  const given = arg.slice(2).split("=")[0] as string;
  if (given === "") return false;
  return names.some((name) => (exact ? name === given : name.startsWith(given)));
}

interface BadOptions {
  /** Short options (clusters included), as a pattern on the whole word. */
  short?: RegExp;
  /** Long option names without `--`; abbreviations match too unless `exact`. */
  long?: string[];
  exact?: boolean;
}

function optionGuard(
  name: string,
  args: string[],
  risky: boolean[],
  what: string,
  bad: BadOptions,
  why: string,
): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  for (const a of args) {
    if (a === "--") break;
    if (a.startsWith("--") ? isLongOption(a, bad.long ?? [], bad.exact) : (bad.short?.test(a) ?? false)) {
      return rw(`${name}: ${why}`);
    }
  }
  return ro(`${name}: ${what}`);
}

/** Read-only while it has at most `max` non-option arguments (`uniq in out` writes `out`). */
function positionalGuard(
  name: string,
  args: string[],
  risky: boolean[],
  what: string,
  max: number,
  why: string,
): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  const positional = args.filter((a) => !a.startsWith("-") || a === "-");
  return positional.length > max ? rw(`${name}: ${why}`) : ro(`${name}: ${what}`);
}

function pager(name: string, args: string[], risky: boolean[]): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  for (const a of args) {
    if (a === "--") break;
    if (
      /^(-[a-zA-Z]*[oOk]|\+)/.test(a) ||
      isLongOption(a, ["log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content"])
    ) {
      return rw(`${name}: writes a log file, loads key bindings or runs commands`);
    }
  }
  return ro(`${name}: pages through files`);
}

/**
 * `tar -tf a.tar` and the like: a listing, with only options known to do nothing else. tar runs
 * programs through many options (`-I`, `--use-compress-program`, `--checkpoint-action=exec=`,
 * `--to-command`, `-F`, `--rsh-command`), so anything not on this short list is writing.
 */
function isTarList(args: string[]): boolean {
  const first = args[0];
  if (first === undefined) return false;
  // `-f host:file` is an archive on another machine, reached with rsh or ssh (--force-local aside).
  if (args.some((a) => a.includes(":"))) return false;
  const cluster = first.startsWith("--") ? "" : first.replace(/^-/, "");
  const listing = first === "--list" || (/^[tvfzjJ]+$/.test(cluster) && cluster.includes("t"));
  if (!listing) return false;
  let needsFile = cluster.includes("f");
  for (const a of args.slice(1)) {
    if (needsFile) {
      needsFile = false;
      continue;
    }
    if (/^-[tvfzjJ]+$/.test(a)) {
      if (a.includes("f")) needsFile = true;
      continue;
    }
    if (/^--(list|verbose|gzip|gunzip|bzip2|xz|zstd|file=.+|wildcards|no-wildcards|exclude=.+|numeric-owner)$/.test(a))
      continue;
    if (a === "--file") {
      needsFile = true;
      continue;
    }
    if (a.startsWith("-")) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Variables

/**
 * `a[$(cmd)]` in text: bash evaluates array subscripts wherever it evaluates arithmetic (`test -v`,
 * `[ x -eq y ]`, `let`, `read`, `printf -v`, integer variables), running the substitution even
 * when the text was quoted.
 */
export const SUBSCRIPT_CODE = /\[[^\]]*(\$\(|`)/;

/** Variables a command may be given without changing what programs run or where they look. */
const HARMLESS_VARIABLES =
  /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI|DEBUG|VERBOSE|TIMEFORMAT)$/;
const PAGER_VARIABLES = /^(PAGER|GIT_PAGER|MANPAGER|SYSTEMD_PAGER|BAT_PAGER)$/;

/**
 * Whether setting `name` (to `value`, when known) leaves every command's meaning unchanged: shell
 * variables in lower case, locale and colour settings, a pager set to `cat`. `PATH`, `LD_PRELOAD`,
 * `GIT_*`, `HOME`, `BASH_ENV` and any other upper-case name are not: they can make a read-only
 * command run something else.
 */
export function harmlessVariable(name: string, value: string | null): boolean {
  if (value !== null && SUBSCRIPT_CODE.test(value)) return false;
  if (/^[a-z_][a-z0-9_]*$/.test(name)) return true;
  if (HARMLESS_VARIABLES.test(name)) return true;
  if (PAGER_VARIABLES.test(name)) return value === "cat" || value === "";
  return false;
}

/** `a[x]` (not `a[0]`): bash evaluates the subscript as arithmetic, running code a variable's value may hold. */
function evaluatedSubscript(variable: string): boolean {
  const open = variable.indexOf("[");
  return open >= 0 && !/^\[\d+\]$/.test(variable.slice(open));
}

export function unsafeVariableReason(name: string): string {
  return `sets ${name}, which can change what commands run or read`;
}

/**
 * `declare`, `typeset`, `local`, `export`, `readonly`. `risky[i]` for an assignment word means its
 * value is not plain literal text: not known before it runs (`a=$x`), or quoted text that reads as
 * a compound assignment (`'a=(...)'`). bash evaluates such a value as `(...)`, substitutions and
 * subscripts included, whenever the variable is an array: with `-a`/`-A`, or (declare, typeset,
 * local) when it already is one, which the line may have arranged anywhere (verified in bash 5.2:
 * `x='($(cmd))'; declare -a a=$x` runs cmd, so does `a=(); declare a=$x`; `export a=$x` does not).
 */
/** Variables every program already gets from its environment: exporting them again changes nothing. */
const ALWAYS_EXPORTED = new Set(["PATH", "HOME", "USER", "LOGNAME", "SHELL"]);

function declaration(name: string, args: string[], risky: boolean[]): Inspection {
  let options = "";
  let exporting = name === "export";
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i] && (a.startsWith("-") || a.startsWith("+"))) return rw(`${name}: a non-literal option`);
    // -n makes a name a reference to another variable (`p=` then sets PS4, PATH, ...); -i makes
    // every assignment arithmetic, which runs code hidden in the value.
    if (/^[-+][a-zA-Z]*[ni]/.test(a)) {
      if (!(name === "export" && a === "-n")) {
        return rw(`${name} ${a}: name references and integer variables can run code`);
      }
      exporting = false;
    }
    if (a.startsWith("-") || a.startsWith("+")) {
      if (a.startsWith("-")) options += a.slice(1);
      if (/^-[a-zA-Z]*x/.test(a)) exporting = true;
      continue;
    }
    const eq = a.indexOf("=");
    const variable = eq >= 0 ? a.slice(0, eq) : a;
    if (risky[i] && eq < 0) return rw(`${name}: a non-literal variable name`);
    if (risky[i] && (name === "declare" || name === "typeset" || name === "local" || /[aA]/.test(options))) {
      return rw(
        `${name}: bash evaluates a value not known before it runs (or quoted as (...)) as a compound array assignment, which can run code`,
      );
    }
    // `export BASH_ENV` (set earlier by `${BASH_ENV:=f}`, read, ...) hands it to every child.
    if (
      eq < 0 &&
      exporting &&
      !ALWAYS_EXPORTED.has(variable) &&
      !harmlessVariable(variable.replace(/\[.*$/, ""), null)
    ) {
      return rw(`${name}: exports ${variable}, which can change what later commands run or read`);
    }
    if (evaluatedSubscript(variable))
      return rw(`${name}: bash evaluates the subscript of ${variable}, which can run code`);
    if (eq >= 0 && !harmlessVariable(variable.replace(/\[.*$/, ""), risky[i] ? null : a.slice(eq + 1))) {
      return rw(`${name}: ${unsafeVariableReason(variable)}`);
    }
  }
  return ro(`${name}: declares shell variables`);
}

/**
 * Builtins that store into variables (`read PATH`, `printf -v PATH`, `mapfile`, `getopts`, `let`):
 * read-only only when every variable they set is harmless, like an assignment.
 */
function setter(name: string, args: string[], risky: boolean[]): Inspection {
  const names: string[] = [];
  const valued: Record<string, string> = {
    read: "adinNptu",
    mapfile: "dnOsucC",
    readarray: "dnOsucC",
    printf: "v",
  };
  const takes = valued[name] ?? "";
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    // A non-literal option could be `-v NAME`; printf's arguments after the format are only data.
    if (risky[i] && (positional.length === 0 || name !== "printf")) {
      return rw(`${name}: a non-literal argument could set any variable`);
    }
    if (a === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (name !== "let" && a.startsWith("-") && a.length > 1 && positional.length === 0) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k] as string;
        if (!takes.includes(c)) continue;
        const value = k < a.length - 1 ? a.slice(k + 1) : (args[++i] ?? "");
        if (c === "C") return rw(`${name}: -C runs a callback`);
        if (c === "v" || (c === "a" && name === "read")) names.push(value);
        break;
      }
      continue;
    }
    positional.push(a);
  }
  if (name === "read") names.push(...positional);
  if (name === "mapfile" || name === "readarray") names.push(...positional.slice(0, 1));
  if (name === "getopts") names.push(...positional.slice(1, 2));
  if (name === "let") {
    for (const expr of positional) {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\[[^\]]*\])?\s*([-+*/%&|^]|<<|>>)?=/.exec(expr);
      if (m) names.push(m[1] as string);
    }
  }
  for (const variable of names) {
    if (evaluatedSubscript(variable))
      return rw(`${name}: bash evaluates the subscript of ${variable}, which can run code`);
    if (!harmlessVariable(variable.replace(/\[.*$/s, ""), null)) {
      return rw(`${name}: ${unsafeVariableReason(variable)}`);
    }
  }
  const what: Record<string, string> = {
    read: "reads input into variables",
    mapfile: "reads lines into an array",
    readarray: "reads lines into an array",
    printf: "prints its arguments",
    getopts: "parses options",
    let: "evaluates arithmetic",
  };
  return ro(`${name}: ${what[name] ?? "sets variables"}`);
}

// ---------------------------------------------------------------------------------------------
// Options

interface OptionSpec {
  /** Options without a value. */
  flags: string[];
  /** Options taking a value (the next word, or after `=` for long ones, attached for short ones). */
  values: string[];
  /** Short value options may be glued to their value (`-oL`). */
  attached?: boolean;
  /** What the command does without a command to run; absent means it needs one. */
  alone?: string;
}

/**
 * Skips a wrapper's options and returns the index (into `args`) of the command it runs, or a
 * reason it cannot tell. Short flag clusters (`-0r`) are split; unknown options stop the analysis.
 */
function skipOptions(args: string[], risky: boolean[], spec: OptionSpec): number | string {
  let i = 0;
  while (i < args.length) {
    const a = args[i] as string;
    if (risky[i]) return "a non-literal option or command";
    if (a === "--") return i + 1;
    if (!a.startsWith("-") || a === "-") return i;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const key = eq >= 0 ? a.slice(0, eq) : a;
      if (spec.flags.includes(key)) i++;
      else if (spec.values.includes(key)) i += eq >= 0 ? 1 : 2;
      else return `unknown option ${a}`;
      continue;
    }
    // short cluster
    let consumed = 1;
    for (let k = 1; k < a.length; k++) {
      const opt = `-${a[k]}`;
      if (spec.flags.includes(opt)) continue;
      if (spec.values.includes(opt)) {
        if (k === a.length - 1) consumed = 2;
        break;
      }
      return `unknown option ${a}`;
    }
    i += consumed;
  }
  return args.length;
}

/** A command that runs the rest of its arguments as another command (`nohup rm f`). */
function wrapper(name: string, args: string[], risky: boolean[], spec: OptionSpec): Inspection {
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  if (start >= args.length) {
    return spec.alone ? ro(`${name}: ${spec.alone}`) : ro(`${name}: runs nothing`);
  }
  return ro(`${name}: runs another command`, {
    nested: [{ kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 }],
    transparent: true,
  });
}

function niceCommand(name: string, args: string[], risky: boolean[]): Inspection {
  // `nice -5 cmd` and `nice -n 5 cmd` both adjust; `nice` alone prints the niceness.
  const normalized = args.map((a) => (/^-\d+$/.test(a) ? "-n0" : a));
  return wrapper(name, normalized, risky, {
    flags: [],
    values: ["-n", "--adjustment"],
    attached: true,
    alone: "prints the niceness",
  });
}

function timeoutCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const spec = {
    flags: ["-v", "--verbose", "--foreground", "--preserve-status"],
    values: ["-s", "-k", "--signal", "--kill-after"],
  };
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  // the duration, then the command
  if (start + 1 >= args.length) return rw(`${name}: no command to run`);
  if (risky[start]) return rw(`${name}: a non-literal duration: cannot tell what it runs`);
  return ro(`${name}: runs another command with a time limit`, {
    nested: [{ kind: "argv", from: start + 2, to: args.length + 1, assigns: 0 }],
    transparent: true,
  });
}

function ionice(name: string, args: string[], risky: boolean[]): Inspection {
  if (args.some((a) => /^-[a-zA-Z]*[pPu]/.test(a) || /^--(pid|pgid|uid)/.test(a))) {
    return rw(`${name}: changes the priority of running processes`);
  }
  return wrapper(name, args, risky, {
    flags: ["-t", "--ignore"],
    values: ["-c", "-n", "--class", "--classdata"],
    attached: true,
    alone: "prints the priority",
  });
}

function commandBuiltin(name: string, args: string[], risky: boolean[]): Inspection {
  if (args.some((a, i) => !risky[i] && /^-[pvV]*[vV]/.test(a))) return ro(`${name}: describes commands`);
  return wrapper(name, args, risky, { flags: ["-p"], values: [] });
}

function sudoLike(name: string, args: string[], risky: boolean[]): Inspection {
  const spec: OptionSpec = {
    flags: [
      "-A",
      "-b",
      "-E",
      "-H",
      "-k",
      "-K",
      "-n",
      "-P",
      "-S",
      "-B",
      "-s",
      "-i",
      "--askpass",
      "--background",
      "--preserve-env",
      "--set-home",
      "--non-interactive",
      "--stdin",
      "--shell",
      "--login",
      "--reset-timestamp",
    ],
    values: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--chdir"],
  };
  const own = `${name}: runs commands with another user's privileges`;
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string" || start >= args.length) return rw(own);
  const shellMode = args.slice(0, start).some((a) => /^-[a-zA-Z]*[si]/.test(a) || a === "--shell" || a === "--login");
  const nested: Nested = shellMode
    ? { kind: "script", from: start + 1, to: args.length + 1 }
    : { kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 };
  return rw(own, { nested: [nested] });
}

function su(name: string, args: string[]): Inspection {
  const own = `${name}: runs commands as another user`;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-c" || a === "--command") {
      return rw(own, { nested: [{ kind: "script", from: i + 2, to: i + 3 }] });
    }
    if (a.startsWith("--command=")) return rw(own);
  }
  return rw(own);
}

function env(name: string, args: string[], risky: boolean[]): Inspection {
  let i = 0;
  let cwd: number | undefined;
  while (i < args.length) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal option or command: cannot tell what it runs`);
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-" || a === "-i" || a === "-0" || a === "-v" || a === "--ignore-environment" || a === "--null") {
      i++;
    } else if (a === "--debug") {
      i++;
    } else if (a === "-u" || a === "--unset") {
      i += 2;
    } else if (a.startsWith("--unset=") || (a.startsWith("-u") && a.length > 2)) {
      i++;
    } else if (a === "-C" || a === "--chdir") {
      cwd = i + 2;
      i += 2;
    } else if (a === "-S" || a === "--split-string") {
      return ro(`${name}: runs a command split from a string`, {
        nested: [{ kind: "script", from: i + 2, to: args.length + 1 }],
        transparent: true,
      });
    } else if (a.startsWith("-S") || a.startsWith("--split-string=")) {
      return rw(`${name}: runs a command split from a string`);
    } else if (a.startsWith("-")) {
      return rw(`${name}: unknown option ${a}: cannot tell what it runs`);
    } else {
      break;
    }
  }
  const assignsStart = i;
  while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i] as string)) i++;
  if (i >= args.length) {
    for (const a of args.slice(assignsStart)) {
      const eq = a.indexOf("=");
      if (!harmlessVariable(a.slice(0, eq), a.slice(eq + 1)))
        return rw(`${name}: ${unsafeVariableReason(a.slice(0, eq))}`);
    }
    return ro(`${name}: prints the environment`);
  }
  const nested: Nested = { kind: "argv", from: assignsStart + 1, to: args.length + 1, assigns: i - assignsStart };
  if (cwd !== undefined) nested.cwd = cwd;
  return ro(`${name}: runs another command`, { nested: [nested], transparent: true });
}

function xargs(name: string, args: string[], risky: boolean[]): Inspection {
  const spec: OptionSpec = {
    flags: [
      "-0",
      "-o",
      "-p",
      "-r",
      "-t",
      "-x",
      "--null",
      "--open-tty",
      "--interactive",
      "--no-run-if-empty",
      "--verbose",
      "--exit",
      "--show-limits",
      "--replace",
    ],
    values: [
      "-a",
      "-d",
      "-E",
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "--arg-file",
      "--delimiter",
      "--eof",
      "--max-lines",
      "--max-args",
      "--max-procs",
      "--max-chars",
      "--process-slot-var",
    ],
    attached: true,
  };
  // optional-argument options only take an attached value: -e[EOF], -i[R], -l[N]
  const normalized = args.map((a) => (/^-[eil]/.test(a) ? "-0" : a));
  const start = skipOptions(normalized, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  // Audited, GNU xargs 4.9: -0 -d -E -e -I -i -L -l -n -P -s -r -t -x -o (reopens the terminal
  // as input) -p (asks at the terminal) --show-limits: nothing beyond the command it runs.
  // -a/--arg-file reads a file (its lines become arguments); --process-slot-var=NAME sets NAME in
  // every command it runs (BASH_ENV=0 makes bash source a file named 0). Abbreviated long options
  // (--arg=f, --process=X) are unknown above, hence writing.
  const reads: string[] = [];
  let problem: string | null = null;
  for (const { option, value } of optionValues(normalized.slice(0, start), risky, spec)) {
    if (option === "-a" || option === "--arg-file") reads.push(value ?? "*");
    if (option === "--process-slot-var" && (value === null || !harmlessVariable(value, "0"))) {
      problem = `${name} --process-slot-var: ${unsafeVariableReason(value ?? "a variable")} in every command it runs`;
    }
  }
  const files = reads.length > 0 ? { files: { reads, writes: [] } } : {};
  if (start >= args.length) return problem ? rw(problem, files) : ro(`${name}: runs echo on its input`, files);
  let replace: string | null = null;
  for (let i = 0; i < start; i++) {
    const a = args[i] as string;
    if (a === "-I") replace = args[i + 1] ?? null;
    else if (/^-[0oprtx]*I/.test(a)) replace = a.slice(a.indexOf("I") + 1) || (args[i + 1] ?? null);
    else if (a === "-i" || a === "--replace") replace = "{}";
    else if (a.startsWith("-i")) replace = a.slice(2);
    else if (a.startsWith("--replace=")) replace = a.slice("--replace=".length);
  }
  const nested: Nested = { kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 };
  if (replace) nested.placeholder = { text: replace, pathOnly: false };
  else nested.appends = true;
  if (problem) return rw(problem, { nested: [nested], ...files });
  return ro(`${name}: runs a command on its input`, { nested: [nested], transparent: true, ...files });
}

/**
 * The value options among a wrapper's options (already checked by skipOptions): each with its
 * value, or null when the value is not literal (`-a "$f"`, marked by a leading `$` or quote).
 */
function optionValues(
  args: string[],
  risky: readonly boolean[],
  spec: OptionSpec,
): { option: string; value: string | null }[] {
  const out: { option: string; value: string | null }[] = [];
  const next = (i: number): string | null => (risky[i] || args[i] === undefined ? null : (args[i] as string));
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") break;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const key = eq >= 0 ? a.slice(0, eq) : a;
      if (spec.values.includes(key)) out.push({ option: key, value: eq >= 0 ? a.slice(eq + 1) : next(++i) });
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const opt = `-${a[k]}`;
      if (!spec.values.includes(opt)) continue;
      const rest = a.slice(k + 1);
      out.push({ option: opt, value: rest.length > 0 ? rest : next(++i) });
      break;
    }
  }
  return out;
}

function watch(name: string, args: string[], risky: boolean[]): Inspection {
  const spec: OptionSpec = {
    flags: ["-b", "-c", "-e", "-g", "-p", "-t", "-w", "-x", "-d", "--beep", "--color", "--errexit", "--chgexit"],
    values: ["-n", "--interval", "-q", "--equexit"],
    attached: true,
  };
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  if (start >= args.length) return rw(`${name}: no command to run`);
  const exec = args.slice(0, start).some((a) => /^-[a-zA-Z]*x/.test(a) || a === "--exec");
  return ro(`${name}: runs a command repeatedly`, {
    nested: [
      exec
        ? { kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 }
        : { kind: "script", from: start + 1, to: args.length + 1 },
    ],
    transparent: true,
  });
}

function trap(name: string, args: string[], risky: boolean[]): Inspection {
  let i = 0;
  if (args[0] === "--") i = 1;
  const action = args[i];
  if (action === undefined || action === "-l" || action === "-p") return ro(`${name}: lists traps`);
  if (args.length - i < 2 || action === "-" || action === "") return ro(`${name}: resets or ignores signals`);
  if (risky[i]) return rw(`${name}: a non-literal trap command`);
  return ro(`${name}: runs a command on a signal`, {
    nested: [{ kind: "script", from: i + 1, to: i + 2, current: true }],
    transparent: true,
  });
}

function alias(name: string, args: string[], risky: boolean[]): Inspection {
  const nested: Nested[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-p") continue;
    if (a.includes("=")) nested.push({ kind: "script", from: i + 1, to: i + 2, afterEquals: true, current: true });
    else if (risky[i]) return rw(`${name}: a non-literal alias`);
  }
  if (nested.length === 0) return ro(`${name}: lists aliases`);
  // The alias's text is analyzed as commands too, but a defined alias can also make any later
  // command name (`ls`) run something else: see effects.ts.
  return rw(`${name}: defines aliases, so later command names may run other commands`, { nested });
}

/** POSIX shells: `-c` text is analyzed; a script file or standard input is arbitrary code. */
function shell(name: string, args: string[], risky: boolean[]): Inspection {
  let i = 0;
  let command = false;
  while (i < args.length) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal option or script`);
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a === "--version" || a === "--help")
      return args.length === 1 ? ro(`${name}: prints its version`) : rw(UNKNOWN_REASON);
    if (a === "--rcfile" || a === "--init-file") return rw(`${name}: runs a startup file`);
    if (a.startsWith("--")) {
      i++;
      continue;
    }
    if (!a.startsWith("-") && !a.startsWith("+")) break;
    if (a === "-o" || a === "+o" || a === "-O" || a === "+O") {
      i += 2;
      continue;
    }
    if (a.slice(1).includes("c")) command = true;
    i++;
  }
  if (command) {
    if (i >= args.length) return rw(`${name}: -c without a command`);
    return ro(`${name}: runs shell code given as text`, {
      nested: [{ kind: "script", from: i + 1, to: i + 2 }],
      transparent: true,
    });
  }
  if (i < args.length) return rw(`${name}: runs a shell script file: arbitrary code`);
  return rw(`${name}: runs shell code from standard input: arbitrary code`);
}

// ---------------------------------------------------------------------------------------------
// find, fd

function find(name: string, args: string[], risky: boolean[]): Inspection {
  const nested: Nested[] = [];
  const writes: number[] = [];
  const problems: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) {
      problems.push("a non-literal argument could be an action such as -delete");
      continue;
    }
    if (a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir") {
      let end = i + 1;
      while (end < args.length && !(args[end] === ";" || (args[end] === "+" && args[end - 1] === "{}"))) end++;
      if (end >= args.length) return rw(`${name}: ${a} without its terminating ;`);
      if (end === i + 1) return rw(`${name}: ${a} without a command`);
      nested.push({
        kind: "argv",
        from: i + 2,
        to: end + 1,
        assigns: 0,
        placeholder: { text: "{}", pathOnly: true },
        ...(a === "-execdir" || a === "-okdir" ? { below: true } : {}),
      });
      i = end;
    } else if (a === "-delete") {
      problems.push("-delete deletes files");
    } else if (a === "-fprint" || a === "-fprint0" || a === "-fls" || a === "-fprintf") {
      problems.push(`${a} writes a file`);
      writes.push(i + 2);
      i += a === "-fprintf" ? 2 : 1;
    }
  }
  if (problems.length > 0) return rw(`${name}: ${problems[0]}`, { nested, writes, transparent: true });
  return ro(`${name}: lists files`, { nested, transparent: true });
}

function fdCommand(name: string, args: string[], risky: boolean[]): Inspection {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-x" || a === "--exec" || a === "-X" || a === "--exec-batch") {
      if (i + 1 >= args.length) return rw(`${name}: ${a} without a command`);
      const inner = args.slice(i + 1);
      const nested: Nested = { kind: "argv", from: i + 2, to: args.length + 1, assigns: 0 };
      // fd replaces {}, {/}, {//}, {.}, {/.}; without any it appends the path.
      if (inner.some((w) => /\{(\/|\/\/|\.|\/\.)?\}/.test(w))) nested.placeholder = { text: "{", pathOnly: false };
      else nested.appends = true;
      return ro(`${name}: runs a command on each file`, { nested: [nested], transparent: true });
    }
  }
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  return ro(`${name}: lists files`);
}

// ---------------------------------------------------------------------------------------------
// tee

function tee(name: string, args: string[], risky: boolean[]): Inspection {
  const writes: number[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (options && a === "--") {
      options = false;
      continue;
    }
    if (options && !risky[i] && a.startsWith("-") && a !== "-") continue;
    if (!risky[i] && isHarmlessDevice(a)) continue;
    writes.push(i + 1);
  }
  if (writes.length === 0) return ro(`${name}: copies its input to standard output`);
  return rw(`${name}: writes files`, { writes });
}

/** Device files that reading or writing cannot change: nothing to ask about. */
export function isHarmlessDevice(path: string): boolean {
  return /^\/dev\/(null|zero|random|urandom|stdout|stderr|stdin|tty|fd\/\d+)$/.test(path);
}

// ---------------------------------------------------------------------------------------------
// sed

/**
 * sed. Scripts come from `-e X`, `-eX`, `--expression=X`, `--expression X` (several join with
 * newlines, as GNU sed does), else the first operand; `-f file`/`--file=file` reads a script
 * nobody has read: writing, and it may read or write any file. Every script is read for its
 * file commands (see readSedScript): `r`/`R` files are read requests, `w`/`W` files and the `w`
 * flag are edit requests, `e` and the `e` flag run commands. `-i` edits its input files.
 */
function sed(name: string, args: string[], risky: boolean[]): Inspection {
  const scripts: string[] = [];
  let explicit = false;
  let inPlace = false;
  const scriptFiles: string[] = [];
  const inputs: number[] = [];
  let i = 0;
  let options = true;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) {
      // After `--` only an input file; before it even a later word may be an option (GNU
      // getopt permutes: `sed p f -i` edits f).
      if (!options && explicit) {
        inputs.push(i);
        continue;
      }
      return rw(`${name}: a non-literal argument could be a script or an option`, {
        files: { reads: ["*"], writes: ["*"] },
      });
    }
    if (options && a === "--") {
      options = false;
      continue;
    }
    if (!options || !a.startsWith("-") || a === "-") {
      if (!explicit) {
        scripts.push(a);
        explicit = true;
      } else {
        inputs.push(i);
      }
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const key = eq >= 0 ? a.slice(0, eq) : a;
      const value = (): string => (eq >= 0 ? a.slice(eq + 1) : (args[++i] ?? ""));
      if (key === "--in-place") inPlace = true;
      else if (key === "--file") {
        explicit = true;
        scriptFiles.push(value());
      } else if (key === "--expression") {
        explicit = true;
        scripts.push(value());
      } else if (key === "--line-length") {
        if (eq < 0) i++;
      } else if (!SED_LONG_FLAGS.has(key)) return rw(`${name}: unknown option ${a}`);
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k] as string;
      if (c === "i") {
        // -i[SUFFIX]: the rest of the word is the suffix.
        inPlace = true;
        break;
      }
      if (c === "e" || c === "f" || c === "l") {
        const rest = a.slice(k + 1);
        const value = rest.length > 0 ? rest : (args[++i] ?? "");
        if (c === "e") {
          explicit = true;
          scripts.push(value);
        } else if (c === "f") {
          explicit = true;
          scriptFiles.push(value);
        }
        break;
      }
      if (!"nErsuzb".includes(c)) return rw(`${name}: unknown option -${c}`);
    }
  }
  if (!explicit) return rw(`${name}: no script`);
  const reads: string[] = [];
  const writes: string[] = [];
  const problems: string[] = [];
  if (scriptFiles.length > 0) {
    // The script file is read (a read request), and what it does is not known.
    reads.push(...scriptFiles, "*");
    writes.push("*");
    problems.push("runs a script file nobody has read: it may write files or run commands");
  }
  const script = readSedScript(scripts.join("\n"));
  if (script.problem) problems.push(script.problem);
  reads.push(...script.reads);
  writes.push(...script.writes);
  if (script.writes.length > 0) problems.push("its script writes files (w, W, the w flag of s)");
  if (script.runs) problems.push("its script runs commands (e, the e flag of s)");
  if (inPlace) problems.push("-i edits files in place");
  const files = reads.length > 0 || writes.length > 0 ? { files: { reads, writes } } : {};
  const edited = inPlace ? { writes: inputs.map((k) => k + 1) } : {};
  if (problems.length > 0) return rw(`${name}: ${problems.join("; ")}`, { ...files, ...edited });
  return ro(`${name}: prints edited text (no -i, no w or e commands)`, files);
}

const SED_LONG_FLAGS = new Set([
  "--quiet",
  "--silent",
  "--regexp-extended",
  "--separate",
  "--unbuffered",
  "--null-data",
  "--zero-terminated",
  "--posix",
  "--debug",
  "--sandbox",
  "--follow-symlinks",
  "--binary",
]);

/** What a sed script does besides printing, as far as it could be read. */
export interface SedScript {
  /** The script could not be read (then nothing else here is complete): treated as writing. */
  problem: string | null;
  /** Files `r` and `R` read. */
  reads: string[];
  /** Files `w`, `W` and the `w` flag of `s` write (`/dev/stdout` and `/dev/stderr` left out). */
  writes: string[];
  /** `e` or the `e` flag of `s` runs a command. */
  runs: boolean;
}

/** A problem for sed: what makes a script writing or unreadable, or null (kept for callers that want one answer). */
export function sedScriptProblem(script: string): string | null {
  const read = readSedScript(script);
  if (read.problem) return read.problem;
  if (read.writes.length > 0) return "the w command or the w flag writes a file";
  if (read.runs) return "the e command or the e flag runs a command";
  return null;
}

/**
 * Reads a GNU sed script (commands separated by `;` or newlines, addresses, `!`, `{ }`) well
 * enough to find its file commands. As GNU sed does (checked with sed 4.9): a file name runs to the
 * end of the line, `;` and `}` included (`1r a;p` reads `a;p`); a bracket expression in a regex
 * may hold the delimiter (`s/[/]/x/w f` writes f); blanks may come between `s`'s flags. Anything
 * it cannot read is a problem, never a guess.
 */
export function readSedScript(script: string): SedScript {
  const s = script;
  const out: SedScript = { problem: null, reads: [], writes: [], runs: false };
  let i = 0;
  const n = s.length;
  const fail = (problem: string): SedScript => ({ ...out, problem });
  /** Skips a regex (brackets honored) or, with `brackets` false, a replacement, up to and past `delim`. */
  const skipPart = (delim: string, brackets: boolean): boolean => {
    while (i < n) {
      const c = s[i] as string;
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "\n" && brackets) return false;
      if (brackets && c === "[") {
        if (!skipBracket()) return false;
        continue;
      }
      i++;
      if (c === delim) return true;
    }
    return false;
  };
  /** `[...]`: `]` first (after `^`) is literal; `[:class:]`, `[=x=]`, `[.x.]` inside. */
  const skipBracket = (): boolean => {
    i++;
    if (s[i] === "^") i++;
    if (s[i] === "]") i++;
    while (i < n) {
      const c = s[i];
      if (c === "\n") return false;
      if (c === "[" && (s[i + 1] === ":" || s[i + 1] === "=" || s[i + 1] === ".")) {
        const close = s.indexOf(`${s[i + 1]}]`, i + 2);
        if (close < 0) return false;
        i = close + 2;
        continue;
      }
      i++;
      if (c === "]") return true;
    }
    return false;
  };
  const toLineEnd = (): void => {
    while (i < n && s[i] !== "\n") {
      if (s[i] === "\\") i++;
      i++;
    }
  };
  /** A file name: blanks skipped, then everything to the end of the line. */
  const fileName = (): string => {
    while (i < n && (s[i] === " " || s[i] === "\t")) i++;
    const start = i;
    while (i < n && s[i] !== "\n") i++;
    return s.slice(start, i);
  };
  const label = (): void => {
    while (i < n && s[i] !== "\n" && s[i] !== ";") i++;
  };
  const address = (): boolean => {
    const c = s[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9~]/.test(s[i] as string)) i++;
      return true;
    }
    if (c === "$") {
      i++;
      return true;
    }
    if (c === "/" || c === "\\") {
      const delim = c === "\\" ? s[i + 1] : "/";
      i += c === "\\" ? 2 : 1;
      if (delim === undefined || delim === "\n" || !skipPart(delim, true)) return false;
      while (i < n && /[IM]/.test(s[i] as string)) i++;
      return true;
    }
    if (c === "+" || c === "~") {
      i++;
      while (i < n && /[0-9]/.test(s[i] as string)) i++;
    }
    return true;
  };
  while (true) {
    while (i < n && /[\s;]/.test(s[i] as string)) i++;
    if (i >= n) return out;
    if (s[i] === "#") {
      toLineEnd();
      continue;
    }
    if (!address()) return fail("an unreadable address");
    if (s[i] === ",") {
      i++;
      while (i < n && /[ \t]/.test(s[i] as string)) i++;
      if (!address()) return fail("an unreadable address");
    }
    while (i < n && /[ \t]/.test(s[i] as string)) i++;
    while (s[i] === "!") i++;
    while (i < n && /[ \t]/.test(s[i] as string)) i++;
    const cmd = s[i++];
    if (cmd === undefined) return fail("an address without a command");
    switch (cmd) {
      case "{":
      case "}":
        break;
      case "s":
      case "y": {
        const delim = s[i++];
        if (delim === undefined || delim === "\\" || delim === "\n") return fail(`an unreadable ${cmd} command`);
        // y has no bracket expressions; s's regex does, its replacement does not.
        if (!skipPart(delim, cmd === "s") || !skipPart(delim, false)) return fail(`an unreadable ${cmd} command`);
        if (cmd === "y") break;
        while (i < n && /[gpiImMe0-9w \t]/.test(s[i] as string)) {
          if (s[i] === "e") out.runs = true;
          if (s[i] === "w") {
            i++;
            const file = fileName();
            if (file === "") return fail("the w flag without a file name");
            if (!SED_OUTPUT_DEVICES.has(file)) out.writes.push(file);
            break;
          }
          i++;
        }
        break;
      }
      case "a":
      case "i":
      case "c":
        toLineEnd();
        break;
      case "r":
      case "R": {
        const file = fileName();
        if (file !== "" && file !== "/dev/stdin") out.reads.push(file);
        break;
      }
      case "w":
      case "W": {
        const file = fileName();
        if (file === "") return fail(`the ${cmd} command without a file name`);
        if (!SED_OUTPUT_DEVICES.has(file)) out.writes.push(file);
        break;
      }
      case "e":
        out.runs = true;
        toLineEnd();
        break;
      case "b":
      case "t":
      case "T":
      case ":":
      case "v":
        label();
        break;
      case "q":
      case "Q":
      case "l":
      case "L":
        while (i < n && /[ \t0-9]/.test(s[i] as string)) i++;
        break;
      default:
        if (!"pPdDnNgGhHxz=F".includes(cmd)) return fail(`an unknown command ${JSON.stringify(cmd)}`);
    }
  }
}

/** File names GNU sed's `w` takes for its own output streams. */
const SED_OUTPUT_DEVICES = new Set(["/dev/stdout", "/dev/stderr"]);

// ---------------------------------------------------------------------------------------------
// awk

function awk(name: string, args: string[], risky: boolean[]): Inspection {
  const programs: string[] = [];
  let explicit = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal argument could change what it does`);
    if (a === "--") {
      if (!explicit && i + 1 < args.length) programs.push(args[i + 1] as string);
      explicit = true;
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      if (!explicit) programs.push(a);
      explicit = true;
      break;
    }
    if (a === "-F" || a === "-v") {
      i++;
      continue;
    }
    if (/^-[Fv]./.test(a) || /^--(field-separator|assign)=/.test(a)) continue;
    if (a === "-e" || a === "--source") {
      programs.push(args[++i] ?? "");
      explicit = true;
      continue;
    }
    if (/^-(f|E|i|l)/.test(a) || /^--(file|exec|include|load)/.test(a))
      return rw(`${name}: loads a program file or extension`);
    if (/^--(posix|traditional|sandbox|characters-as-bytes|re-interval|lint|non-decimal-data)$/.test(a)) continue;
    if (/^-[bcPrSt]+$/.test(a)) continue;
    return rw(`${name}: unknown option ${a}`);
  }
  if (programs.length === 0) return rw(`${name}: no program`);
  for (const p of programs) {
    // Plain substrings, not syntax: awk continues lines with a backslash (`system\<newline>(`), so
    // anything that merely contains these words or characters is not proven read-only.
    if (/system|\||>|<|getline|@|fflush|close|ENVIRON|PROCINFO/.test(p)) {
      return rw(`${name}: the program may read other files, write files or run commands (system, getline, |, <, >)`);
    }
  }
  // `BEGIN { ARGV[1] = ".env"; ARGC = 2 }` makes awk read a file no operand names.
  if (programs.some((p) => /ARGV|ARGC/.test(p))) {
    return ro(`${name}: prints computed text; its program chooses the files it reads (ARGV)`, {
      files: { reads: ["*"], writes: [] },
    });
  }
  return ro(`${name}: prints computed text (no system, pipes or output redirection)`);
}

// ---------------------------------------------------------------------------------------------
// git

const GIT_READ: Record<string, string> = {
  status: "shows the working tree status",
  log: "shows history",
  diff: "shows changes",
  show: "shows objects",
  "rev-parse": "resolves names",
  "ls-files": "lists files",
  "ls-tree": "lists a tree",
  blame: "annotates lines",
  annotate: "annotates lines",
  shortlog: "summarizes history",
  describe: "names a commit",
  "cat-file": "prints objects",
  "rev-list": "lists commits",
  "merge-base": "finds a common ancestor",
  "name-rev": "names commits",
  "count-objects": "counts objects",
  "show-ref": "lists references",
  "for-each-ref": "lists references",
  "show-branch": "shows branches",
  whatchanged: "shows history",
  version: "prints its version",
  help: "prints help",
  "check-ignore": "checks ignore rules",
  "check-attr": "checks attributes",
  "check-ref-format": "checks a reference name",
  var: "prints variables",
  "diff-tree": "compares trees",
  "diff-files": "compares files",
  "diff-index": "compares the index",
  "range-diff": "compares ranges",
  cherry: "finds unmerged commits",
  grep: "searches files",
};

/** Subcommands that run hooks (or other configured programs) as well as writing. */
const GIT_HOOKS = new Set([
  "commit",
  "merge",
  "rebase",
  "checkout",
  "switch",
  "push",
  "pull",
  "am",
  "clone",
  "gc",
  "cherry-pick",
  "revert",
  "fetch",
  "reset",
  "worktree",
  "bisect",
  "filter-branch",
  "submodule",
  "restore",
]);

const GIT_WRITE = new Set([
  "add",
  "rm",
  "mv",
  "stash",
  "clean",
  "tag",
  "config",
  "branch",
  "remote",
  "init",
  "apply",
  "notes",
  "reflog",
  "update-ref",
  "update-index",
  "symbolic-ref",
  "prune",
  "repack",
  "replace",
  "format-patch",
  "archive",
  "bundle",
  "sparse-checkout",
  "lfs",
  "maintenance",
]);

const GIT_GLOBAL_FLAGS = new Set([
  "--no-pager",
  "-P",
  "--paginate",
  "-p",
  "--bare",
  "--no-replace-objects",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--no-advice",
]);

function git(name: string, args: string[], risky: boolean[]): Inspection {
  let i = 0;
  while (i < args.length) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal option or subcommand`);
    if (a === "-c" || (a.startsWith("-c") && a.length > 2) || a.startsWith("--config-env")) {
      return rw(`${name} -c: sets configuration for this run, which can name hooks and programs to run`);
    }
    if (a.startsWith("--exec-path")) {
      return a === "--exec-path" && args.length === 1
        ? ro(`${name}: prints its exec path`)
        : rw(`${name} --exec-path: runs git programs from another folder`);
    }
    if (/^--(git-dir|work-tree|namespace|super-prefix|attr-source)/.test(a)) {
      return rw(`${name} ${a.split("=")[0]}: points git at another repository, whose configuration can run programs`);
    }
    if (a === "-C") {
      i += 2;
      continue;
    }
    if (a === "--version" || a === "--help" || a === "-h" || a === "--html-path" || a === "--man-path") {
      return ro(`${name}: prints information`);
    }
    if (GIT_GLOBAL_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-")) return rw(`${name}: unknown option ${a}`);
    break;
  }
  const sub = args[i];
  if (sub === undefined) return ro(`${name}: prints usage`);
  const rest = args.slice(i + 1);
  const restRisky = risky.slice(i + 1);
  const label = `${name} ${sub}`;
  const dashdash = rest.indexOf("--");
  const optionRisky = restRisky.some((r, k) => r && (dashdash < 0 || k < dashdash));

  const read = GIT_READ[sub];
  if (read !== undefined) {
    if (optionRisky) {
      // Such a word may be `--output=<any file>`.
      return rw(`${label}: a non-literal argument could be an option that writes`, {
        files: { reads: [], writes: ["*"] },
      });
    }
    const options = dashdash < 0 ? rest : rest.slice(0, dashdash);
    const problem = gitReadOptionProblem(sub, options);
    if (problem) return rw(`${label}: ${problem}`, gitOutputs(options));
    return ro(`${label}: ${read}`);
  }
  if (optionRisky && sub !== "commit") return rw(`${label}: a non-literal argument could change what it does`);
  switch (sub) {
    case "branch":
      return listOnly(label, rest, {
        flags:
          /^(-a|--all|-r|--remotes|-v|-vv|--verbose|--show-current|--no-color|--color(=.*)?|--column(=.*)?|--no-column|--sort=.*|--format=.*|--abbrev=.*|--no-abbrev|-i|--ignore-case|--omit-empty|--(no-)?contains=.*|--(no-)?merged=.*|--points-at=.*)$/,
        values: /^(--contains|--no-contains|--merged|--no-merged|--points-at|--sort|--format)$/,
        list: /^(-l|--list)$/,
        what: "lists branches",
        write: "creates, renames or deletes branches",
      });
    case "tag":
      return listOnly(label, rest, {
        flags:
          /^(-n\d*|--sort=.*|--format=.*|--column(=.*)?|--no-column|-i|--ignore-case|--color(=.*)?|--(no-)?contains=.*|--(no-)?merged=.*|--points-at=.*|--omit-empty)$/,
        values: /^(--contains|--no-contains|--merged|--no-merged|--points-at|--sort|--format)$/,
        list: /^(-l|--list)$/,
        what: "lists tags",
        write: "creates or deletes tags",
      });
    case "remote": {
      const positional = rest.filter((a) => !a.startsWith("-"));
      if (rest.every((a) => a === "-v" || a === "--verbose")) return ro(`${label}: lists remotes`);
      // `show` asks the remote over the network unless -n.
      if (positional[0] === "get-url" || (positional[0] === "show" && rest.includes("-n"))) {
        return ro(`${label}: shows a remote`);
      }
      return rw(`${label}: changes remotes`);
    }
    case "stash":
      if (rest[0] === "list" || rest[0] === "show") {
        // They take log and diff options: `git stash show --output=f` writes f.
        const problem = gitReadOptionProblem(rest[0], rest.slice(1));
        if (problem) return rw(`${label} ${rest[0]}: ${problem}`, gitOutputs(rest.slice(1)));
        return ro(`${label} ${rest[0]}: shows stashes`);
      }
      return rw(`${label}: changes the working tree and stashes`);
    case "config":
      return gitConfig(label, rest);
    case "reflog":
      if (rest.length === 0 || rest[0] === "show" || (rest[0] as string).startsWith("-")) {
        // `git reflog show` is `git log -g`: log options, `--output=f` included.
        const options = rest[0] === "show" ? rest.slice(1) : rest;
        const problem = gitReadOptionProblem("log", options);
        if (problem) return rw(`${label}: ${problem}`, gitOutputs(options));
        return ro(`${label}: shows the reflog`);
      }
      return rw(`${label}: changes the reflog`);
    case "notes":
      if (rest.length === 0 || rest[0] === "list" || rest[0] === "show") return ro(`${label}: shows notes`);
      return rw(`${label}: changes notes`);
    case "worktree":
      if (rest[0] === "list") return ro(`${label} list: lists worktrees`);
      break;
    case "submodule":
      if (rest[0] === "status" || rest[0] === "summary") return ro(`${label}: shows submodules`);
      break;
  }
  if (sub === "ls-remote" || sub === "archive") return rw(`${label}: reaches a remote over the network`);
  if (sub === "verify-commit" || sub === "verify-tag") {
    return rw(`${label}: runs gpg, which writes its trust database and may fetch keys over the network`);
  }
  if (GIT_HOOKS.has(sub)) return rw(`${label}: writes the repository and runs hooks`);
  if (GIT_WRITE.has(sub)) return rw(`${label}: changes the repository or working tree`);
  return rw(`${label}: unknown git subcommand (maybe an alias): treated as writing`);
}

/**
 * What an option of a read-only git subcommand does beyond reading, or null. Audited against git
 * 2.39's documentation and checked where it could be (issue 11), subcommand by subcommand:
 *
 * - every subcommand that takes diff or log options (log, show, diff, diff-tree, diff-files,
 *   diff-index, range-diff, whatchanged, shortlog, rev-list, stash show/list, reflog show):
 *   `--output=f` writes f; `--ext-diff` runs the configured external diff program;
 *   `--textconv` runs textconv filters (also accepted by blame, grep and cat-file);
 *   `--show-signature` and the `%G…` placeholders of `--format`/`--pretty` run gpg (gpg.program);
 *   `-O<file>` only reads a file (an operand, judged by the read rules);
 * - cat-file: `--filters` runs the configured clean/smudge filters;
 * - grep: `-O`/`--open-files-in-pager` runs a program on the results;
 * - ls-remote (not read-only anyway): `--upload-pack`/`-u` names a program;
 * - help: `-w`/`--web` opens a browser (`-m`/`-i` run man and info, read-only themselves);
 * - for-each-ref, branch, tag: `%(signature…)` in `--format` runs gpg;
 * - verify-commit and verify-tag always run gpg (which writes its trust database and may fetch
 *   keys): no longer read-only;
 * - status, ls-files, ls-tree, rev-parse, blame, annotate, describe, cat-file, merge-base,
 *   name-rev, count-objects, show-ref, show-branch, check-ignore, check-attr,
 *   check-ref-format, var, cherry, version: no option that writes, runs or connects (status and
 *   `describe --dirty` refresh the index, a cache).
 *
 * Not options, so not here: a repository's own config can make even `git status` run programs
 * (core.fsmonitor, diff.external, filters, textconv): shellRequests refuses to call git
 * read-only where the repository it would use is not the workspace's kind (a bare repository
 * found in the tree, whose config anyone can commit), and bubblewrap confines what remains. A
 * partial clone may fetch missing objects from its promisor remote: confinement has no network.
 */
function gitReadOptionProblem(sub: string, options: string[]): string | null {
  for (const a of options) {
    if (isLongOption(a, ["output"])) return "--output writes a file";
    if (isLongOption(a, ["ext-diff"])) return "--ext-diff runs the configured external diff program";
    if (isLongOption(a, ["textconv"])) return "--textconv runs the configured textconv programs";
    if (sub === "cat-file" && isLongOption(a, ["filters"])) return "--filters runs the configured filter programs";
    if (isLongOption(a, ["show-signature"])) return "--show-signature runs gpg";
    if (/%G|%\(signature/.test(a)) return "a signature placeholder in the format runs gpg";
    if (isLongOption(a, ["upload-pack", "exec", "receive-pack"])) return "names a program for git to run";
  }
  if (sub === "ls-remote" && options.some((a) => /^-[a-zA-Z]*u/.test(a) && !a.startsWith("--"))) {
    return "-u names a program for git to run";
  }
  if (
    sub === "grep" &&
    options.some((a) => isLongOption(a, ["open-files-in-pager"]) || (!a.startsWith("--") && /^-[a-zA-Z]*O/.test(a)))
  ) {
    return "-O runs a program on the results";
  }
  if (sub === "help" && options.some((a) => a === "-w" || a === "--web")) return "opens a browser";
  return null;
}

/** The files `--output=f` (or `--output f`, abbreviations too) names: written, so edit requests. */
function gitOutputs(options: string[]): Partial<Inspection> {
  const writes: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const a = options[i] as string;
    if (!isLongOption(a, ["output"])) continue;
    const eq = a.indexOf("=");
    writes.push(eq >= 0 ? a.slice(eq + 1) : (options[++i] ?? "*"));
  }
  return writes.length > 0 ? { files: { reads: [], writes } } : {};
}

function listOnly(
  label: string,
  args: string[],
  spec: { flags: RegExp; values: RegExp; list: RegExp; what: string; write: string },
): Inspection {
  const listing = args.some((a) => spec.list.test(a));
  if (args.some((a) => /%\(signature/.test(a))) return rw(`${label}: a signature placeholder in the format runs gpg`);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (spec.list.test(a) || spec.flags.test(a)) continue;
    if (spec.values.test(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-") || !listing) return rw(`${label}: ${spec.write}`);
  }
  return ro(`${label}: ${spec.what}`);
}

/** `git config`: read-only only for what certainly reads; any other option (abbreviations included) is writing. */
function gitConfig(label: string, args: string[]): Inspection {
  const READING =
    /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|--list|-l|--show-origin|--show-scope|--name-only|-z|--null|--includes|--no-includes|--global|--system|--local|--worktree|--fixed-value)$/;
  const VALUED = /^(-f|--file|--blob|--type|--default)$/;
  const positional: string[] = [];
  let reading = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (READING.test(a)) {
      if (
        !/^(--show-|--name-only|-z|--null|--includes|--no-includes|--global|--system|--local|--worktree|--fixed-value)/.test(
          a,
        )
      ) {
        reading = true;
      }
    } else if (VALUED.test(a)) {
      i++;
    } else if (/^--(type|default|file|blob)=/.test(a)) {
      // a value given inline
    } else if (a.startsWith("-")) {
      return rw(`${label}: ${a} may change configuration`);
    } else {
      positional.push(a);
    }
  }
  const [first] = positional;
  if (first === "get" || first === "list") return ro(`${label} ${first}: reads configuration`);
  if (first && /^(set|unset|rename-section|remove-section|edit)$/.test(first))
    return rw(`${label} ${first}: changes configuration`);
  if (reading || positional.length === 1) return ro(`${label}: reads configuration`);
  if (positional.length === 0) return rw(`${label}: no key`);
  return rw(`${label}: sets configuration`);
}

// ---------------------------------------------------------------------------------------------
// Package managers, toolchains, network

/**
 * npm, pnpm, yarn, bun, pip: even their listing commands write logs and caches under the home
 * folder and may reach the network (the registry, an update check). Only printing the version
 * is read-only.
 */
function packageManager(name: string, args: string[]): Inspection {
  return versionOnly(name, args, `${name}: writes logs and caches, reaches the registry, or runs package scripts`);
}

function pip(name: string, args: string[]): Inspection {
  return versionOnly(name, args, `${name}: writes logs and caches, reaches the index, or installs packages`);
}

function goCommand(name: string, args: string[], risky: boolean[]): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  const sub = args[0];
  if (sub === "version" || sub === "help" || sub === "doc") return ro(`${name} ${sub}: prints information`);
  if (sub === "env" && !args.some((a) => a === "-w" || a === "-u")) return ro(`${name} env: prints settings`);
  return rw(`${name}${sub ? ` ${sub}` : ""}: builds, downloads or runs code`);
}

/**
 * curl reaches the network: every request can carry what it read (`-H @file`, a URL holding a
 * secret) to another machine, and reads `file://` URLs anywhere. Never read-only; only printing
 * its version is.
 */
function curl(name: string, args: string[]): Inspection {
  return versionOnly(name, args, `${name}: sends requests over the network`);
}
