/**
 * How many leading words name "the command" when a person answers "always" to a shell call:
 * `git status -s` is saved as `git status *`, `npm run test` as `npm run test *`, `rm -f a` as
 * `rm *`. One table, so the breadth of every "always" is decided in one place and shown to the
 * person before anything is saved.
 */

/** Commands whose first argument is a subcommand: the prefix is the command and that word. */
const SUBCOMMANDS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "helm",
  "terraform",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "gem",
  "bundle",
  "brew",
  "apt",
  "apt-get",
  "dnf",
  "yum",
  "systemctl",
  "make",
  "mvn",
  "gradle",
  "dotnet",
  "swift",
  "rustup",
  "nvm",
  "composer",
  "mix",
  "stack",
  "cabal",
]);

/** Commands with two levels of subcommand: `gh pr list`, `npm run test`, `docker compose up`. */
const TWO_LEVELS: Readonly<Record<string, ReadonlySet<string>>> = {
  gh: new Set(["*"]),
  az: new Set(["*"]),
  gcloud: new Set(["*"]),
  aws: new Set(["*"]),
  npm: new Set(["run", "run-script", "exec"]),
  pnpm: new Set(["run", "exec"]),
  yarn: new Set(["run", "workspace"]),
  bun: new Set(["run", "x"]),
  docker: new Set(["compose", "container", "image", "network", "volume"]),
  git: new Set(["stash", "remote", "submodule", "worktree", "config"]),
  cargo: new Set(["run"]),
  go: new Set(["run", "mod"]),
};

/** Interpreters whose `-m module` names what runs: `python -m pytest` is its own command. */
const MODULE_RUNNERS = new Set(["python", "python3", "py"]);

/**
 * The number of leading words (the command name first) that make up the prefix. An option before
 * the subcommand (`git -C ../other push`) could change what the subcommand does or where, and
 * which word is the subcommand is then a guess: the whole command is the prefix, so an "always"
 * for it covers exactly that command.
 */
export function prefixLength(argv: readonly string[]): number {
  const name = argv[0];
  if (name === undefined) return 0;
  const base = name.slice(name.lastIndexOf("/") + 1);
  let length = 1;
  if (MODULE_RUNNERS.has(base) && argv[1] === "-m" && argv[2] !== undefined) return 3;
  if (SUBCOMMANDS.has(base) || TWO_LEVELS[base]) {
    const i = 1;
    if (argv.length <= i || (argv[i] as string).startsWith("-")) return argv.length;
    length = i + 1;
    const second = TWO_LEVELS[base];
    const sub = argv[i] as string;
    if (second && (second.has("*") || second.has(sub)) && argv[i + 1] !== undefined && !argv[i + 1]?.startsWith("-")) {
      length = i + 2;
    }
  }
  return Math.min(length, argv.length);
}
