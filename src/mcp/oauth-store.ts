import { createHash } from "node:crypto";
import { chmodSync, lstatSync, readdirSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { containedPath } from "../util/contained.js";
import { readFileAt, realLocation, writeFileAtomic } from "../util/safe-write.js";

/** What bosun keeps of one server's sign-in: as the SDK gave it, unchanged (it checks the issuer stamps). */
export interface StoredCredentials {
  /** The server's name in config. */
  name: string;
  /** Its address as signed in to (origin and path): credentials are never sent to another. */
  server: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  /** The authorization server found at sign-in: a run goes back to it, not to what the server says now. */
  discovery?: OAuthDiscoveryState;
}

/** Where a server's credentials live: one file, named for its name and address together. */
export interface CredentialFile {
  path: string;
  name: string;
  server: string;
}

/** The folder of every server's credentials, under bosun's own data folder (owner-only). */
export function credentialFolder(dataFolder: string): string {
  return join(dataFolder, "mcp-oauth");
}

/** The address credentials are bound to: origin and path, never a query (which may hold a token). */
export function boundAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * The file of server `name` at `url`. The name is config's (letters, digits, _ and -), but it is
 * still made safe here and the path checked to stay in the folder: it may come from a
 * repository. The address is part of the key, so a repository's server that borrows the name of
 * one of yours, pointing elsewhere, finds no credentials — yours are never sent to its host.
 */
export function credentialFile(dataFolder: string, name: string, url: string): CredentialFile {
  const server = boundAddress(url);
  const digest = createHash("sha256").update(`${name}\n${server}`).digest("hex").slice(0, 16);
  return { path: containedPath(credentialFolder(dataFolder), `${safeName(name)}-${digest}.json`), name, server };
}

/** A name as a file name's start: its safe characters only, bounded. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 48) || "server";
}

/** The stored credentials of `file`, or undefined when there are none, they are another server's, or unreadable. */
export function readCredentials(file: CredentialFile): StoredCredentials | undefined {
  const found = readFileAt(settled(file.path));
  if (found.kind !== "file") return undefined;
  try {
    const parsed = JSON.parse(found.data.toString("utf8")) as StoredCredentials;
    if (typeof parsed !== "object" || parsed === null) return undefined;
    return parsed.name === file.name && parsed.server === file.server ? parsed : undefined;
  } catch {
    // A damaged file counts as none: the person signs in again, and the next save replaces it.
    return undefined;
  }
}

/** Saves `credentials` whole or not at all, owner-only (folder 0700, file 0600). */
export function writeCredentials(file: CredentialFile, credentials: Omit<StoredCredentials, "name" | "server">): void {
  const record: StoredCredentials = { ...credentials, name: file.name, server: file.server };
  const written = writeFileAtomic(file.path, `${JSON.stringify(record, null, 2)}\n`, {
    mode: 0o600,
    parents: true,
    folderMode: 0o700,
  });
  // A file that was there keeps its mode through the replace; this one holds secrets, so 0600 always.
  chmodSync(written, 0o600);
}

/**
 * Removes every stored credential file of server `name` (at any address), and says how many
 * there were. Each removal is one unlink: the file is there whole or gone.
 */
export function removeCredentials(dataFolder: string, name: string): number {
  const folder = credentialFolder(dataFolder);
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return 0;
  }
  const prefix = `${safeName(name)}-`;
  let removed = 0;
  for (const entry of entries) {
    // Exactly this name's files: "a-" must not take "a-b-<digest>.json", server a-b's.
    if (!entry.startsWith(prefix) || !/^[0-9a-f]{16}\.json$/.test(entry.slice(prefix.length))) continue;
    const path = containedPath(folder, entry);
    if (!lstatSync(path).isFile() || !namedFor(path, name)) continue;
    unlinkSync(path);
    removed++;
  }
  return removed;
}

function namedFor(path: string, name: string): boolean {
  const found = readFileAt(settled(path));
  if (found.kind !== "file") return false;
  try {
    return (JSON.parse(found.data.toString("utf8")) as { name?: unknown }).name === name;
  } catch {
    // Unreadable, but named like this server's: its file all the same.
    return true;
  }
}

/** The path with its folder's links resolved (a linked home still works), a link at the name itself not followed. */
function settled(path: string): string {
  return join(realLocation(dirname(path)), basename(path));
}
