/**
 * git, subcommand by subcommand: which only read (and with which options they still only read),
 * which write, run hooks or configured programs, or reach the network. The audit of every
 * read-only subcommand's options is written beside gitReadOptionProblem.
 */
import { type Inspection, isLongOption, ro, rw } from "./inspection.js";

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

export function git(name: string, args: string[], risky: boolean[]): Inspection {
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
