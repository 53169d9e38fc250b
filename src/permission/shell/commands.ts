/**
 * Which simple commands are read-only. A fixed table, argv-only (no parser, no file system): a
 * command is read-only only when this file says so and says why; anything it does not know is
 * writing. Commands that run other commands (`sudo`, `xargs`, `find -exec`, `bash -c`, `eval`)
 * report what they run as `nested`, so the analysis can look at those too.
 */

import { git } from "./git.js";
import { type Classification, type Inspection, ro, rw, UNKNOWN_REASON } from "./inspection.js";
import {
  awk,
  curl,
  dateCommand,
  fdCommand,
  find,
  goCommand,
  hostnameCommand,
  isTarList,
  optionGuard,
  packageManager,
  pager,
  pip,
  positionalGuard,
  readsFileList,
  tee,
  testCommand,
  versionOnly,
} from "./programs.js";
import { sed } from "./sed.js";
import { declaration, harmlessVariable, SUBSCRIPT_CODE, setter, unsafeVariableReason } from "./variables.js";
import {
  alias,
  commandBuiltin,
  env,
  ionice,
  niceCommand,
  shell,
  su,
  sudoLike,
  timeoutCommand,
  trap,
  watch,
  wrapper,
  xargs,
} from "./wrappers.js";

export { type Classification, type Inspection, isLongOption, type Nested, UNKNOWN_REASON } from "./inspection.js";
export { isHarmlessDevice } from "./programs.js";
export { readSedScript, type SedScript, sedScriptProblem } from "./sed.js";
export { harmlessVariable, SUBSCRIPT_CODE, unsafeVariableReason } from "./variables.js";

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
