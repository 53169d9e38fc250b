import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { realLocation, writeFileAtomic } from "../util/safe-write.js";

/** Where the server's token lives: one owner-only file under bosun's data folder. */
export function tokenFile(dataFolder: string): string {
  return join(dataFolder, "server", "token");
}

/** A token of 32 random bytes, base64url: nothing to guess, safe in a header. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The server's token: the one kept, or a new one made and kept on first start (folder 0700, file
 * 0600). `created` tells the caller to print it, once. Only a regular file of this user's, that
 * nobody else may read, is kept: a link planted at its name, a file others can read, or a damaged
 * one is replaced — a token someone else could know proves nothing about who sends it.
 */
export function serverToken(dataFolder: string): { token: string; created: boolean; file: string } {
  const file = tokenFile(dataFolder);
  ownFolder(dirname(file));
  const kept = keptToken(file);
  if (kept) return { token: kept, created: false, file };
  const token = randomBytes(32).toString("base64url");
  const written = writeFileAtomic(file, `${token}\n`, { mode: 0o600, parents: true, folderMode: 0o700 });
  chmodSync(written, 0o600);
  return { token, created: true, file };
}

/** The token at `file` when it can be trusted; a link or another's file there is removed. */
function keptToken(file: string): string | undefined {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined;
  }
  const mine = stat.isFile() && stat.uid === uid() && (stat.mode & 0o077) === 0;
  if (!mine) {
    // Not ours to read from; the new token takes its name.
    if (stat.isSymbolicLink() || stat.isFile()) unlinkSync(file);
    return undefined;
  }
  const text = readFileSync(file, "utf8").trim();
  return TOKEN.test(text) ? text : undefined;
}

/**
 * The token's folder, this user's only: made 0700, or narrowed to it when it was left open (others
 * could rename a new token file into place). One of another user's is refused.
 */
function ownFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const real = realLocation(folder);
  const stat = lstatSync(real);
  if (!stat.isDirectory() || stat.uid !== uid()) {
    throw new Error(`${folder} is not a folder of this user's: the server's token cannot be kept there`);
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(real, 0o700);
}

function uid(): number {
  return process.getuid?.() ?? -1;
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
