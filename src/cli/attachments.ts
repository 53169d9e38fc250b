import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { IMAGE_MAX_BYTES, imageTypeOf } from "../contracts/images.js";
import { UsageError } from "../errors.js";
import type { UserMessage } from "../session/events.js";
import { binaryReason } from "../tools/read.js";

/** Largest file `-f` attaches whole; a bigger one is better read by the agent with `read`. */
export const ATTACH_MAX_BYTES = 256 * 1024;

/** Reads `-f` attachments: text files and images (png, jpeg, gif, webp), bounded in size; anything else is a usage error. */
export async function readAttachments(
  paths: readonly string[],
  cwd: string,
): Promise<NonNullable<UserMessage["files"]>> {
  const files: NonNullable<UserMessage["files"]> = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    let size: number;
    try {
      const stat = statSync(full);
      if (!stat.isFile()) throw new UsageError(`cannot attach ${path}: not a file`);
      size = stat.size;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(
        `cannot attach ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const max = imageTypeOf(full) ? IMAGE_MAX_BYTES : ATTACH_MAX_BYTES;
    if (size > max) {
      throw new UsageError(`cannot attach ${path}: ${size} bytes is over ${max}; ask the agent to read it instead`);
    }
    const image = imageTypeOf(full);
    if (image) {
      files.push({ path, content: "", image: { mediaType: image, data: readFileSync(full).toString("base64") } });
      continue;
    }
    const binary = await binaryReason(full);
    if (binary) throw new UsageError(`cannot attach ${path}: it is a binary file (${binary})`);
    files.push({ path, content: readFileSync(full, "utf8") });
  }
  return files;
}
