import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, rmdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { dataDir } from "../config/paths.js";
import { writeFileAt } from "../util/safe-write.js";

/**
 * Snapshots of a work tree in a shadow git repository under bosun's data folder
 * (`snapshots/<hash of the work tree's path>/`), never the user's `.git`: GIT_DIR points at the
 * shadow repository, GIT_WORK_TREE at the work tree. Its index lives there too, so a snapshot
 * costs what `git add -A` costs on an index that is already warm: files whose stat data did not
 * change are not read again, and a file over the cap is never read at all.
 *
 * What a snapshot holds: every file git would add in the work tree — the repository's
 * .gitignore files and the user's global excludes are honoured, `.git` folders never taken —
 * except files over `maxFileBytes`, which are left out and listed.
 */

export interface SnapshotOptions {
  /** Files larger than this are left out of the snapshot (and listed). */
  maxFileBytes: number;
  /** The snapshot's git commands together may take this long; then it fails. */
  timeoutMs: number;
  /** Where the shadow repositories live; default `dataDir()/snapshots`. */
  root?: string;
}

export type SnapshotResult = { ok: true; tree: string; leftOut: string[] } | { ok: false; error: string };

/** The tree's change between two snapshots: one path, and whether it was added, modified or deleted. */
export interface TreeChange {
  path: string;
  status: "added" | "modified" | "deleted";
}

/** The shadow repository of one work tree. */
export function shadowDir(workTree: string, root = join(dataDir(), "snapshots")): string {
  const hash = createHash("sha256").update(workTree).digest("hex").slice(0, 16);
  return join(root, hash);
}

/** Runs git on the shadow repository of `workTree`; rejects with git's stderr on failure. */
export function git(
  gitDir: string,
  workTree: string,
  args: readonly string[],
  options: { input?: string; timeoutMs: number; deadline?: number },
): Promise<string> {
  const timeout = options.deadline ? Math.max(1, options.deadline - Date.now()) : options.timeoutMs;
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      // Byte for byte: no line-ending conversion, no filters, no hooks, literal paths.
      ["-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.quotePath=false", ...args],
      {
        cwd: workTree,
        env: {
          ...process.env,
          GIT_DIR: gitDir,
          GIT_WORK_TREE: workTree,
          GIT_LITERAL_PATHSPECS: "1",
          GIT_INDEX_FILE: join(gitDir, "index"),
          GIT_OPTIONAL_LOCKS: "0",
        },
        timeout,
        maxBuffer: 256 * 1024 * 1024,
        encoding: "buffer",
      },
      (error, stdout, stderr) => {
        if (error) {
          const why = error.killed ? `timed out after ${timeout} ms` : String(stderr).trim() || error.message;
          reject(new Error(`git ${args[0]}: ${why}`));
        } else resolve(String(stdout));
      },
    );
    // A git that exits before reading its input (or needs none) closes the pipe: its exit status says what went wrong.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
  });
}

/** Creates the shadow repository once: bare of hooks, every attribute that would rewrite content switched off. */
async function ensureShadow(gitDir: string, workTree: string, deadline: number): Promise<void> {
  try {
    statSync(join(gitDir, "HEAD"));
    return;
  } catch {
    // Not there yet.
  }
  mkdirSync(dirname(gitDir), { recursive: true, mode: 0o700 });
  await git(gitDir, workTree, ["init", "-q"], { timeoutMs: 0, deadline });
  rmSync(join(gitDir, "hooks"), { recursive: true, force: true });
  // info/attributes outranks the repository's .gitattributes: no LFS or eol filter touches a snapshot.
  mkdirSync(join(gitDir, "info"), { recursive: true });
  writeFileSync(join(gitDir, "info", "attributes"), "* -text -eol -filter -ident -working-tree-encoding\n");
}

/**
 * A snapshot of `workTree` now: its tree id in the shadow repository, and the files left out for
 * their size. Never throws: a missing git, a timeout or a broken shadow repository is an error
 * result, for the caller to record.
 */
export async function takeSnapshot(workTree: string, options: SnapshotOptions): Promise<SnapshotResult> {
  const gitDir = shadowDir(workTree, options.root);
  const deadline = Date.now() + options.timeoutMs;
  const run = async (args: string[], input?: string): Promise<string> => {
    for (;;) {
      try {
        return await git(gitDir, workTree, args, {
          timeoutMs: options.timeoutMs,
          deadline,
          ...(input ? { input } : {}),
        });
      } catch (error) {
        // Two sessions in one work tree share its shadow repository: the other's snapshot holds
        // the index a moment. Wait for it, within the deadline; any other failure stands.
        if (!String(error).includes("index.lock") || Date.now() + 100 >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  try {
    await ensureShadow(gitDir, workTree, deadline);
    // What `git add -A` would take: untracked and not ignored, or tracked and changed. Only these are measured.
    const changed = (await run(["ls-files", "-z", "--others", "--modified", "--exclude-standard"]))
      .split("\0")
      .filter(Boolean);
    const unique = [...new Set(changed)];
    const leftOut = unique.filter((path) => tooLarge(join(workTree, path), options.maxFileBytes));
    const skip = new Set(leftOut);
    // Only what changed is hashed, and never a file over the cap (`git add -A` would read and store
    // it before it could be taken out). A path gone from the work tree leaves the index (--remove);
    // a nested repository (listed as `dir/`) is not taken.
    const take = unique.filter((path) => !skip.has(path) && !path.endsWith("/"));
    if (take.length > 0) await run(["update-index", "--add", "--remove", "-z", "--stdin"], `${take.join("\0")}\0`);
    // One the index held before it grew over the cap goes out of it, whatever it holds now.
    if (leftOut.length > 0) await run(["update-index", "--force-remove", "-z", "--stdin"], `${leftOut.join("\0")}\0`);
    const tree = (await run(["write-tree"])).trim();
    return { ok: true, tree, leftOut: leftOut.sort() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function tooLarge(path: string, max: number): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size > max;
  } catch {
    return false;
  }
}

/** The files that differ between two snapshot trees of `workTree`. */
export async function treeChanges(
  workTree: string,
  from: string,
  to: string,
  options: Pick<SnapshotOptions, "timeoutMs" | "root">,
): Promise<TreeChange[]> {
  const out = await git(
    shadowDir(workTree, options.root),
    workTree,
    ["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to],
    options,
  );
  const parts = out.split("\0").filter(Boolean);
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const letter = parts[i] as string;
    const status = letter === "A" ? "added" : letter === "D" ? "deleted" : "modified";
    changes.push({ path: parts[i + 1] as string, status });
  }
  return changes;
}

/** The unified diff between two snapshot trees (optionally of some paths only). */
export function treeDiff(
  workTree: string,
  from: string,
  to: string,
  options: Pick<SnapshotOptions, "timeoutMs" | "root">,
): Promise<string> {
  return git(shadowDir(workTree, options.root), workTree, ["diff", "--no-color", "--no-renames", from, to], options);
}

/**
 * Puts `paths` of the work tree back as they are in snapshot `tree`: a path the tree holds is
 * written from it — atomically (a temporary file renamed over it), with its executable bit; a
 * link as a link — and a path it does not hold is deleted. Nothing else in the work tree, nor
 * the shadow repository's index, is touched.
 */
export async function restorePaths(
  workTree: string,
  tree: string,
  paths: readonly string[],
  options: Pick<SnapshotOptions, "timeoutMs" | "root">,
): Promise<void> {
  if (paths.length === 0) return;
  const gitDir = shadowDir(workTree, options.root);
  // `<mode> blob <id>\t<path>`, NUL-terminated, for the paths the tree holds.
  const held = new Map<string, { mode: string; id: string }>();
  const listed = await git(gitDir, workTree, ["ls-tree", "-r", "-z", tree, "--", ...paths], options);
  for (const entry of listed.split("\0").filter(Boolean)) {
    const tab = entry.indexOf("\t");
    const [mode, , id] = entry.slice(0, tab).split(" ");
    if (mode && id) held.set(entry.slice(tab + 1), { mode, id });
  }
  for (const path of paths) {
    const full = join(workTree, path);
    const entry = held.get(path);
    if (!entry) {
      rmSync(full, { force: true });
      removeEmptyParents(workTree, path);
      continue;
    }
    const content = await gitBytes(gitDir, workTree, ["cat-file", "blob", entry.id], options);
    if (entry.mode === "120000") {
      // A link holds its target: put back as a link, not a file with the target's name in it.
      rmSync(full, { force: true });
      mkdirSync(dirname(full), { recursive: true });
      symlinkSync(content.toString(), full);
      continue;
    }
    rmIfNotFile(full);
    writeFileAt(full, content, { parents: true });
    // The executable bit as the snapshot had it; the other bits as the file has them (the umask's).
    const mode = statSync(full).mode & 0o777;
    chmodSync(full, entry.mode === "100755" ? mode | ((mode & 0o444) >> 2) : mode & ~0o111);
  }
}

/** A link or folder where a file goes is taken away first: the snapshot held a file there. */
function rmIfNotFile(path: string): void {
  try {
    if (!lstatSync(path).isFile()) rmSync(path, { recursive: true, force: true });
  } catch {
    // Nothing there.
  }
}

/** Like `git`, but the output as bytes: a blob is not text. */
function gitBytes(
  gitDir: string,
  workTree: string,
  args: readonly string[],
  options: { timeoutMs: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      {
        cwd: workTree,
        env: { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: workTree },
        timeout: options.timeoutMs,
        maxBuffer: 1024 * 1024 * 1024,
        encoding: "buffer",
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args[0]}: ${String(stderr).trim() || error.message}`));
        else resolve(stdout);
      },
    ).stdin?.end();
  });
}

/** Folders a deleted file leaves empty go too, up to the work tree (a created folder is undone whole). */
function removeEmptyParents(workTree: string, path: string): void {
  for (let dir = dirname(path); dir !== "." && dir !== "/"; dir = dirname(dir)) {
    try {
      rmdirSync(join(workTree, dir));
    } catch {
      return;
    }
  }
}
