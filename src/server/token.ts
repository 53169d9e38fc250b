import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, statSync } from "node:fs";
import { join } from "node:path";
import { readFileAt, realLocation, writeFileAtomic } from "../util/safe-write.js";

/** Where the server's token lives: one owner-only file under bosun's data folder. */
export function tokenFile(dataFolder: string): string {
  return join(dataFolder, "server", "token");
}

/** A token of 32 random bytes, base64url: nothing to guess, safe in a header. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The server's token: the one kept, or a new one made and kept on first start (folder 0700, file
 * 0600). `created` tells the caller to print it, once. A damaged or readable-by-others file is
 * replaced: a token others could read proves nothing about who sends it.
 */
export function serverToken(dataFolder: string): { token: string; created: boolean; file: string } {
  const file = tokenFile(dataFolder);
  const found = readFileAt(realLocation(file));
  if (found.kind === "file") {
    const kept = found.data.toString("utf8").trim();
    if (TOKEN.test(kept) && ownerOnly(file)) return { token: kept, created: false, file };
  }
  const token = randomBytes(32).toString("base64url");
  const written = writeFileAtomic(file, `${token}\n`, { mode: 0o600, parents: true, folderMode: 0o700 });
  chmodSync(written, 0o600);
  return { token, created: true, file };
}

function ownerOnly(file: string): boolean {
  try {
    return (statSync(file).mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Whether an Authorization header carries exactly `token` as a Bearer token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  // The scheme is case-insensitive (RFC 7235); the token is compared exactly.
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
