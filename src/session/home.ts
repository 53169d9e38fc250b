import { resolve } from "node:path";
import { workspaceOf } from "../util/repo.js";

/**
 * Sessions belong to the repository they were started in, not to the subfolder: a session is
 * recorded with its repository's root (workspaceOf: the nearest `.git`, else the folder itself,
 * links resolved), so `bosun -c` from any subfolder finds the repository's latest session and
 * `bosun sessions` lists the repository's sessions wherever in it it is run.
 */

/** The directory a session started in `cwd` is recorded with. */
export function sessionHome(cwd: string): string {
  return workspaceOf(cwd);
}

/**
 * The directories whose sessions are "here" from `cwd`: its home, and `cwd` itself, where an
 * older bosun recorded sessions started in a subfolder.
 */
export function homesOf(cwd: string): string[] {
  const home = sessionHome(cwd);
  const here = resolve(cwd);
  return here === home ? [home] : [home, here];
}

/** Whether a session recorded with `directory` belongs where `cwd` is (so no question about where to work). */
export function belongsHere(directory: string, cwd: string): boolean {
  return homesOf(cwd).includes(directory);
}
