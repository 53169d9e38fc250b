import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/safe-write.js";

/** Instruction files (and fetched copies) larger than this are skipped: they are sent on every step. */
export const MAX_INSTRUCTION_BYTES = 64 * 1024;

export type FetchedInstruction = { ok: true; content: string; note: string } | { ok: false; reason: string };

/** Why a URL may not be fetched at all, or undefined when it may: https anywhere, http only to this machine. */
export function urlRefusal(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "not a valid URL";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return undefined;
  if (url.protocol === "http:") return "plain http is only fetched from localhost; use https";
  return `${url.protocol.slice(0, -1)} URLs are not fetched; use https`;
}

/** The cache file of a URL's last good copy. */
export function cachePath(cacheDir: string, url: string): string {
  return join(cacheDir, `instructions-${createHash("sha256").update(url).digest("hex").slice(0, 32)}.md`);
}

/**
 * Fetches one instruction URL. A good copy (200, text, within the size limit) is cached; when the
 * fetch fails or times out, the last cached copy is used and the note says so; without one, the
 * URL is skipped with the reason. Never throws.
 */
export async function fetchInstruction(url: string, cacheDir: string, timeoutMs: number): Promise<FetchedInstruction> {
  const refused = urlRefusal(url);
  if (refused) return { ok: false, reason: refused };
  const fetched = await tryFetch(url, timeoutMs);
  const file = cachePath(cacheDir, url);
  if (fetched.ok) {
    const cached = writeCache(file, fetched.content);
    return { ok: true, content: fetched.content, note: cached ? `fetched (not cached: ${cached})` : "fetched" };
  }
  let copy: string;
  try {
    copy = readFileSync(file, "utf8");
  } catch {
    return { ok: false, reason: `fetch failed: ${fetched.reason}; no cached copy` };
  }
  return { ok: true, content: copy, note: `cached copy (fetch failed: ${fetched.reason})` };
}

async function tryFetch(
  url: string,
  timeoutMs: number,
): Promise<{ ok: true; content: string } | { ok: false; reason: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "text/*" } });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, reason: `HTTP ${response.status}` };
    }
    const type = response.headers.get("content-type") ?? "";
    if (type && !/^text\/|markdown/i.test(type)) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, reason: `not text (${type})` };
    }
    const declared = Number(response.headers.get("content-length") ?? 0);
    if (declared > MAX_INSTRUCTION_BYTES) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, reason: `over ${MAX_INSTRUCTION_BYTES / 1024} KiB (${declared} bytes)` };
    }
    const content = await response.text();
    const size = Buffer.byteLength(content);
    if (size > MAX_INSTRUCTION_BYTES)
      return { ok: false, reason: `over ${MAX_INSTRUCTION_BYTES / 1024} KiB (${size} bytes)` };
    return { ok: true, content };
  } catch (error) {
    return { ok: false, reason: fetchError(error, timeoutMs) };
  }
}

function fetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

/** Writes the cache file atomically; returns why it could not, or undefined. */
function writeCache(file: string, content: string): string | undefined {
  try {
    writeFileAtomic(file, content, { parents: true });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}
