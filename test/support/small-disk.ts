/**
 * A small real file system for ENOSPC tests: a tmpfs of a few hundred KiB mounted on a fresh
 * folder. Only root can mount one, so where the tests do not run as root (or mounting is not
 * allowed, as in some containers) `mountSmallDisk` says why instead, and the test skips with that
 * reason printed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SmallDisk = { path: string; unmount: () => void } | { unavailable: string };

export function mountSmallDisk(bytes: number): SmallDisk {
  if (process.getuid?.() !== 0) return { unavailable: "ENOSPC tests need root to mount a small tmpfs" };
  const path = mkdtempSync(join(tmpdir(), "bosun-small-disk-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", path], { encoding: "utf8" });
  if (mounted.status !== 0) {
    rmSync(path, { recursive: true, force: true });
    return { unavailable: `cannot mount a tmpfs here: ${(mounted.stderr || mounted.error?.message || "").trim()}` };
  }
  return {
    path,
    unmount: () => {
      spawnSync("umount", ["-l", path]);
      rmSync(path, { recursive: true, force: true });
    },
  };
}
