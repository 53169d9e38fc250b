import { lstatSync } from "node:fs";

/** Whether anything is at `path` — a dangling symbolic link too (it is not followed). */
export function entryExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
