/**
 * Makes a folder really read-only for a test. Root ignores permission bits, so for root the folder
 * is bind-mounted on itself and remounted read-only (`mount --bind`, then `remount,ro,bind`); for
 * anyone else `chmod -R a-w` does it. Where root cannot mount (some containers) it says why, and
 * the test skips with that reason printed.
 */
import { spawnSync } from "node:child_process";

export type ReadOnly = { restore: () => void } | { unavailable: string };

export function makeReadOnly(path: string): ReadOnly {
  if (process.getuid?.() !== 0) {
    const made = spawnSync("chmod", ["-R", "a-w", path], { encoding: "utf8" });
    if (made.status !== 0) return { unavailable: `chmod -R a-w failed: ${made.stderr.trim()}` };
    return { restore: () => void spawnSync("chmod", ["-R", "u+w", path]) };
  }
  const bound = spawnSync("mount", ["--bind", path, path], { encoding: "utf8" });
  if (bound.status !== 0) return { unavailable: `cannot bind-mount ${path}: ${(bound.stderr || "").trim()}` };
  const remounted = spawnSync("mount", ["-o", "remount,ro,bind", path], { encoding: "utf8" });
  if (remounted.status !== 0) {
    spawnSync("umount", ["-l", path]);
    return { unavailable: `cannot remount ${path} read-only: ${(remounted.stderr || "").trim()}` };
  }
  return { restore: () => void spawnSync("umount", ["-l", path]) };
}
