import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/**
 * Files written exactly where a check said, and whole or not at all.
 *
 * A path is judged by its real location (links resolved); the write comes a moment later, and
 * meanwhile another process (a background job) may swap the file, or a folder on the way, for a
 * link to somewhere else. Writing by path would follow that link. So the judged folder is opened
 * once and its descriptor's real path (`/proc/self/fd/<fd>`) must be the judged folder; from
 * then on everything happens through that descriptor — `/proc/self/fd/<fd>/<name>` is openat()
 * in a language without it — and a swapped path no longer matters. The content goes to a new
 * temporary file there (O_EXCL|O_NOFOLLOW: never an existing file or a link), is synced, and is
 * renamed over the name: a rename replaces a link at the name instead of following it, and a
 * reader sees the old file or the new one, never half of one — and a process killed mid-write
 * (SIGKILL, a full disk) leaves the old one whole, and at most a temporary file that the next write
 * there removes. The replaced file keeps its mode (set-id bits aside) and, where allowed, its
 * owner. A file with other names (hard links) is replaced too, not written through: its other
 * names, which no check looked at, keep the old content.
 *
 * A link: the path judged is the link's resolved target (the permission layer resolves links
 * before any rule sees a path), so a write of a link's name lands on its target, atomically there,
 * and the link stays a link; what was approved is the target. A link found at the judged name
 * itself was put there after the check, and is refused.
 *
 * Where there is no /proc/self/fd (macOS), the folder is checked by its real path before the
 * temporary file is made and again before the rename, and the temporary file and the final name
 * are still never followed; a folder on the way swapped between the second check and the rename
 * is the window left there.
 */

/** Thrown when the judged path no longer leads where it was judged to (a link was swapped in). */
export class PathChangedError extends Error {
  override name = "PathChangedError";
  constructor(
    /** The path as judged. */
    readonly path: string,
    /** Where that path leads now, when it can be told. */
    readonly leadsTo: string | undefined,
  ) {
    super(
      `${path} changed after it was checked${leadsTo !== undefined && leadsTo !== path ? ` (it now leads to ${leadsTo})` : " (a link was put in its way)"}`,
    );
  }
}

export interface WriteOptions {
  /** A new file's mode, before the umask (default 0o666). A replaced file keeps its own mode. */
  mode?: number;
  /** Create missing parent folders, one by one below a verified folder, never through a link. */
  parents?: boolean;
  /** The mode of folders `parents` makes, before the umask (default 0o777; 0o700 for bosun's own). */
  folderMode?: number;
}

/** What is at a judged path, looked at without following a link there. */
export type Existing = { kind: "none" } | { kind: "file"; data: Buffer } | { kind: "folder" } | { kind: "other" };

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;
const FOLDER_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/**
 * Writes `content` to `target` — an absolute path with links already resolved (a judged path) —
 * so that it lands exactly there: atomically, through the verified folder. Throws
 * PathChangedError when a link now stands in the way (the folder, a folder on the way, or the
 * name itself), and the file system's errors otherwise (ENOENT without `parents`, EISDIR, ...).
 */
export function writeFileAt(target: string, content: string | Uint8Array, options: WriteOptions = {}): void {
  const path = checked(target);
  const name = basename(path);
  const folder = openFolder(dirname(path), path, options.parents ?? false, options.folderMode);
  let temp: string | undefined;
  try {
    const existing = lstatOrUndefined(folder.at(name));
    if (existing?.isSymbolicLink()) throw new PathChangedError(path, leadsTo(path));
    if (existing?.isDirectory()) throw fsError("EISDIR", `${path} is a folder`);
    if (existing && !existing.isFile()) throw fsError("EINVAL", `${path} is not a regular file`);
    // A rename would replace a file we may not write (one made read-only to keep it as it is): as a write would, refuse.
    if (existing) accessSync(folder.at(name), constants.W_OK);

    temp = tempName(name);
    // A replaced file's content is never more exposed than the file was: 0o600 until its mode is set.
    const fd = openSync(
      folder.at(temp),
      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
      existing ? 0o600 : (options.mode ?? 0o666),
    );
    try {
      writeAll(fd, typeof content === "string" ? Buffer.from(content, "utf8") : content);
      if (existing) keepOwnerAndMode(fd, existing);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    folder.verify();
    renameSync(folder.at(temp), folder.at(name));
    temp = undefined;
    folder.sync();
    removeStaleTemps(folder);
  } catch (error) {
    throw folder.explain(error);
  } finally {
    if (temp !== undefined) removeQuietly(folder.at(temp));
    folder.close();
  }
}

/**
 * What is at `target` (absolute, links resolved) right now, read through the verified folder and
 * never through a link at the name: a file's content, or that it is missing, a folder or something
 * else. Throws PathChangedError when a link stands in the way.
 */
export function readFileAt(target: string): Existing {
  const path = checked(target);
  let folder: Folder;
  try {
    folder = openFolder(dirname(path), path, false);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return { kind: "none" };
    throw error;
  }
  try {
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO at the name must not hang the read; it is "other" below.
      fd = openSync(folder.at(basename(path)), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      const code = codeOf(error);
      if (code === "ENOENT") return { kind: "none" };
      if (code === "ELOOP") throw new PathChangedError(path, leadsTo(path));
      throw error;
    }
    try {
      const info = fstatSync(fd);
      if (info.isDirectory()) return { kind: "folder" };
      if (!info.isFile()) return { kind: "other" };
      return { kind: "file", data: readFileSync(fd) };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw folder.explain(error);
  } finally {
    folder.close();
  }
}

/**
 * Removes the file at `target` (absolute, links resolved) through the verified folder: never a
 * link put at the name (PathChangedError), never a folder or anything but a regular file.
 */
export function removeFileAt(target: string): void {
  const path = checked(target);
  const name = basename(path);
  const folder = openFolder(dirname(path), path, false);
  try {
    const existing = lstatSync(folder.at(name));
    if (existing.isSymbolicLink()) throw new PathChangedError(path, leadsTo(path));
    if (existing.isDirectory()) throw fsError("EISDIR", `${path} is a folder`);
    if (!existing.isFile()) throw fsError("EINVAL", `${path} is not a regular file`);
    unlinkSync(folder.at(name));
    folder.sync();
  } catch (error) {
    throw folder.explain(error);
  } finally {
    folder.close();
  }
}

/**
 * Appends `text` to `target` (absolute, links resolved) through the verified folder, creating it
 * with `mode` (exactly) when missing, never through a link at the name. An append is already
 * whole per write for a reader of lines, so no temporary file: O_APPEND|O_NOFOLLOW on the
 * folder's descriptor gives the same guarantee of place.
 */
export function appendFileAt(target: string, text: string, options: WriteOptions = {}): void {
  const path = checked(target);
  const name = basename(path);
  const folder = openFolder(dirname(path), path, options.parents ?? false, options.folderMode);
  try {
    let fd: number;
    let created = false;
    try {
      fd = openSync(folder.at(name), O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW, options.mode ?? 0o666);
      created = true;
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw error;
      try {
        fd = openSync(folder.at(name), O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK);
      } catch (again) {
        if (codeOf(again) === "ELOOP") throw new PathChangedError(path, leadsTo(path));
        throw again;
      }
    }
    try {
      // The umask may have taken bits the caller asked for; a created file gets exactly its mode.
      if (created && options.mode !== undefined) fchmodSync(fd, options.mode);
      if (!fstatSync(fd).isFile()) throw fsError("EINVAL", `${path} is not a regular file`);
      writeAll(fd, Buffer.from(text, "utf8"));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw folder.explain(error);
  } finally {
    folder.close();
  }
}

export interface OwnFileOptions extends WriteOptions {
  /**
   * Follow a link that stands at the name when the write starts (a path the person named, such
   * as an export's `-o`). By default a link there is refused: a fresh name of bosun's (an
   * overflow file) is never written through a link someone put in its place.
   */
  followLink?: boolean;
}

/**
 * For bosun's own files (overflow output, history, exports, caches), which no rule judged: the
 * folder is resolved through links now (a data folder under a linked home still works), and the
 * file is written exactly there, atomically, as `writeFileAt` does. Returns where it was written.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array, options: OwnFileOptions = {}): string {
  const target = settle(resolve(path), options.followLink ?? false);
  writeFileAt(target, content, options);
  return target;
}

/** `appendFileAt` for bosun's own files: the folder resolved through links now. */
export function appendFileAtomic(path: string, text: string, options: OwnFileOptions = {}): string {
  const target = settle(resolve(path), options.followLink ?? false);
  appendFileAt(target, text, options);
  return target;
}

function settle(path: string, followLink: boolean): string {
  return followLink ? realLocation(path) : join(realLocation(dirname(path)), basename(path));
}

/**
 * Where `path` leads now: the real path of what exists of it, the rest appended, a link at the
 * end followed even when it dangles. For messages and for settling bosun's own paths; a loop or
 * an unreadable folder leaves the rest as written.
 */
export function realLocation(path: string, depth = 0): string {
  try {
    return realpathSync(path);
  } catch {
    // Missing (or a dangling link): settle the folder, then see what the name is.
  }
  const parent = dirname(path);
  if (parent === path || depth > 40) return path;
  const folder = realLocation(parent, depth + 1);
  const here = join(folder, basename(path));
  try {
    const link = readlinkSync(here);
    return realLocation(resolve(folder, link), depth + 1);
  } catch {
    return here;
  }
}

/** A folder opened for writing into: names inside it, resolved so that a swapped path does not matter. */
interface Folder {
  /** The path of `name` inside this folder, as the kernel will resolve it. */
  at(name: string): string;
  /** Just before the rename: throws PathChangedError if the folder is no longer the judged one. */
  verify(): void;
  /** An error met inside it, told in the folder's own path (not /proc/self/fd/N), and whether it was removed meanwhile. */
  explain(error: unknown): unknown;
  /** Makes a rename in it durable (best effort: some file systems cannot sync a folder). */
  sync(): void;
  close(): void;
}

/**
 * Opens `folder` (absolute, links resolved) and proves it is that folder, not something a link
 * led to; with `parents`, makes the missing ones first. `target` is what the error names.
 */
function openFolder(folder: string, target: string, parents: boolean, folderMode = 0o777): Folder {
  return hasFdPaths()
    ? openFolderFd(folder, target, parents, folderMode)
    : openFolderByPath(folder, target, parents, folderMode);
}

function openFolderFd(folder: string, target: string, parents: boolean, folderMode: number): Folder {
  const fd = openVerifiedFd(folder, target, parents, folderMode);
  const at = (name: string) => `/proc/self/fd/${fd}/${name}`;
  return {
    at,
    verify() {},
    explain: (error) => explainAt(error, fd, folder),
    sync() {
      syncQuietly(fd);
    },
    close() {
      closeSync(fd);
    },
  };
}

/** A descriptor of `folder` whose real path is `folder`; missing folders made through verified descriptors. */
function openVerifiedFd(folder: string, target: string, parents: boolean, folderMode = 0o777): number {
  let fd: number;
  try {
    fd = openSync(folder, FOLDER_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT" && parents && dirname(folder) !== folder) return makeFolderFd(folder, target, folderMode);
    if (code === "ELOOP" || (code === "ENOTDIR" && isLink(folder))) throw new PathChangedError(target, leadsTo(target));
    throw error;
  }
  const real = fdPath(fd);
  if (real !== folder) {
    closeSync(fd);
    throw new PathChangedError(target, leadsTo(target));
  }
  return fd;
}

/** Makes `folder` inside its verified parent (made first if missing too) and opens it. */
function makeFolderFd(folder: string, target: string, folderMode: number): number {
  const parent = openVerifiedFd(dirname(folder), target, true, folderMode);
  try {
    return makeInside(parent, folder, target, folderMode);
  } catch (error) {
    throw explainAt(error, parent, dirname(folder));
  } finally {
    closeSync(parent);
  }
}

/** Makes `folder` inside the verified descriptor `parent` and opens it, refusing a link put there meanwhile. */
function makeInside(parent: number, folder: string, target: string, folderMode: number): number {
  const inside = `/proc/self/fd/${parent}/${basename(folder)}`;
  try {
    mkdirSync(inside, folderMode);
  } catch (error) {
    // Made meanwhile by someone else: used if it is a real folder, as the open below proves.
    if (codeOf(error) !== "EEXIST") throw error;
  }
  try {
    return openSync(inside, FOLDER_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ELOOP" || (code === "ENOTDIR" && isLink(inside))) throw new PathChangedError(target, leadsTo(target));
    throw error;
  }
}

/**
 * An error met inside the folder open as `fd`, told in the folder's own path rather than
 * /proc/self/fd/N (which the model cannot act on), and said plainly when the folder was removed
 * meanwhile.
 */
function explainAt(error: unknown, fd: number, folder: string): unknown {
  if (!(error instanceof Error) || error instanceof PathChangedError) return error;
  let removed = false;
  try {
    removed = fdPath(fd).endsWith(" (deleted)");
  } catch {
    // Cannot tell; the error stands as it is.
  }
  const message = removed
    ? `${folder} was removed while it was being written`
    : error.message.split(`/proc/self/fd/${fd}`).join(folder);
  return Object.assign(new Error(message), { code: removed ? "ENOENT" : codeOf(error) });
}

function openFolderByPath(folder: string, target: string, parents: boolean, folderMode: number): Folder {
  const verify = () => {
    let real: string;
    try {
      real = realpathSync(folder);
    } catch (error) {
      if (isLink(folder)) throw new PathChangedError(target, leadsTo(target));
      throw error;
    }
    if (real !== folder) throw new PathChangedError(target, leadsTo(target));
  };
  if (parents && !existsSync(folder)) makeFoldersByPath(folder, target, folderMode);
  verify();
  return {
    at: (name) => join(folder, name),
    verify,
    explain: (error) => error,
    sync() {
      try {
        const fd = openSync(folder, FOLDER_FLAGS);
        syncQuietly(fd);
        closeSync(fd);
      } catch {
        // Durability of the rename is best effort here.
      }
    },
    close() {},
  };
}

/** Without descriptor paths: each missing folder made after its parent's real path is checked. */
function makeFoldersByPath(folder: string, target: string, folderMode: number): void {
  const parent = dirname(folder);
  if (parent !== folder && !existsSync(parent)) makeFoldersByPath(parent, target, folderMode);
  if (realpathSync(parent) !== parent) throw new PathChangedError(target, leadsTo(target));
  try {
    mkdirSync(folder, folderMode);
  } catch (error) {
    if (codeOf(error) !== "EEXIST") throw error;
  }
}

let fdPaths: boolean | undefined;

/** For tests: take the path without /proc/self/fd (macOS's) on Linux too, or (undefined) detect again. */
export function useDescriptorPaths(available: boolean | undefined): void {
  fdPaths = available;
}

/** Whether /proc/self/fd names open descriptors by their real path (Linux). Asked once. */
function hasFdPaths(): boolean {
  if (fdPaths === undefined) {
    try {
      const fd = openSync("/", FOLDER_FLAGS);
      try {
        fdPaths = fdPath(fd) === "/" && lstatSync(`/proc/self/fd/${fd}/`).isDirectory();
      } finally {
        closeSync(fd);
      }
    } catch {
      fdPaths = false;
    }
  }
  return fdPaths;
}

function fdPath(fd: number): string {
  return readlinkSync(`/proc/self/fd/${fd}`);
}

function checked(target: string): string {
  if (!isAbsolute(target) || target.includes("\0")) {
    throw new TypeError(`safe writes need an absolute path without NUL bytes, got ${JSON.stringify(target)}`);
  }
  const path = resolve(target);
  if (dirname(path) === path) throw fsError("EISDIR", `${path} is a folder`);
  return path;
}

/**
 * A temporary file's name beside `name`: hidden, never an existing one, and saying which process
 * on which machine made it — a run killed mid-write (SIGKILL, a power cut) leaves it behind, and
 * the next write into that folder removes it once that process is gone (removeStaleTemps).
 */
function tempName(name: string): string {
  return `.${name.slice(0, 64)}.${HOST_TAG}-${process.pid}-${randomBytes(4).toString("hex")}${TEMP_SUFFIX}`;
}

const TEMP_SUFFIX = ".bosun-tmp";
/** This machine, briefly: a process id means nothing on another one sharing the folder. */
const HOST_TAG = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);
const TEMP_PATTERN = /\.([0-9a-f]{6})-(\d+)-[0-9a-f]{8}\.bosun-tmp$/;

/**
 * Removes the temporary files other runs on this machine left in the folder when they were killed
 * mid-write: ones whose process no longer exists. A live one's is never touched (it may be about
 * to rename it); another machine's is left alone (its process cannot be asked about). Best effort.
 */
function removeStaleTemps(folder: Folder): void {
  let names: string[];
  try {
    names = readdirSync(folder.at(""));
  } catch {
    return;
  }
  for (const entry of names) {
    if (!entry.endsWith(TEMP_SUFFIX) || !entry.startsWith(".")) continue;
    const match = TEMP_PATTERN.exec(entry);
    if (!match || match[1] !== HOST_TAG) continue;
    const pid = Number(match[2]);
    if (pid === process.pid || processAlive(pid)) continue;
    try {
      if (lstatSync(folder.at(entry)).isFile()) unlinkSync(folder.at(entry));
    } catch {
      // Gone meanwhile.
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return codeOf(error) === "EPERM";
  }
}

function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

/** The replaced file's mode (without set-id bits, as any write by another would drop them) and, where allowed, its owner. */
function keepOwnerAndMode(fd: number, existing: Stats): void {
  fchmodSync(fd, existing.mode & 0o1777);
  if (existing.uid === process.geteuid?.() && existing.gid === process.getegid?.()) return;
  try {
    fchownSync(fd, existing.uid, existing.gid);
  } catch {
    try {
      // Not root: the group may still be one of ours.
      fchownSync(fd, -1, existing.gid);
    } catch {
      // The new file is ours: the most a rename by someone else can give.
    }
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function syncQuietly(fd: number): void {
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a folder; the rename stands.
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or the folder with it.
  }
}

function leadsTo(path: string): string | undefined {
  try {
    return realLocation(path);
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}
