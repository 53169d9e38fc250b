import { lookup } from "node:dns/promises";
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Resolved } from "./address-check.js";

/** A host's addresses, every one (the check judges them all), or why it has none. */
export async function resolveHost(host: string): Promise<{ addresses: Resolved[] } | { error: string }> {
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return { addresses: found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      error: code === "ENOTFOUND" ? `${host} was not found (DNS)` : `${host} could not be resolved (${code ?? error})`,
    };
  }
}

export interface HopLimits {
  /** Milliseconds to connect (TCP, and TLS for https). */
  connectMs: number;
  /** Aborted when the whole fetch's time is up, or the call is cancelled. */
  signal: AbortSignal;
  /** Most body bytes kept; reading stops there. */
  maxBytes: number;
}

export type HopResult =
  | {
      status: number;
      statusText: string;
      headers: IncomingHttpHeaders;
      body: Buffer;
      /** The body went on past maxBytes; reading stopped there. */
      truncated: boolean;
    }
  | { error: string };

/**
 * One HTTP exchange with `url`, connected to `pinned` — the address the check judged — never to
 * what another lookup of the host would say, so a name that resolves anew (DNS rebinding) cannot
 * lead elsewhere. TLS still checks the certificate for the host's name. No redirect is followed
 * here; the body is read up to maxBytes and decoded as the server encoded it.
 */
export function fetchHop(url: URL, pinned: Resolved, limits: HopLimits): Promise<HopResult> {
  const pin: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: HopResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      limits.signal.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const req = send(url, {
      lookup: pin,
      // A connection of its own: a pooled one to the same name could lead to an address judged for another fetch.
      agent: false,
      headers: {
        "user-agent": "bosun",
        accept: "text/html, text/*;q=0.9, */*;q=0.5",
        "accept-encoding": "gzip, deflate, br",
      },
    });
    const connectTimer = setTimeout(() => {
      req.destroy();
      finish({ error: `could not connect to ${url.host} within ${limits.connectMs} ms` });
    }, limits.connectMs);
    req.on("socket", (socket) => {
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    const onAbort = () => {
      req.destroy();
      finish({ error: limits.signal.reason instanceof Error ? limits.signal.reason.message : "cancelled" });
    };
    if (limits.signal.aborted) return onAbort();
    limits.signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) => finish({ error: describeNetError(error, url) }));
    req.on("response", (res) => {
      clearTimeout(connectTimer);
      readBody(res, limits.maxBytes).then(
        (read) =>
          finish({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? "",
            headers: res.headers,
            ...read,
          }),
        (error: unknown) => finish({ error: describeNetError(error, url) }),
      );
    });
    req.end();
  });
}

/** The body as the server encoded it, decoded, at most `maxBytes` of it. */
async function readBody(res: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const encoding = String(res.headers["content-encoding"] ?? "").toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  const stream = decoder ? res.pipe(decoder) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = maxBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  // Stop reading: the rest is never fetched.
  if (truncated) {
    decoder?.destroy();
    res.destroy();
  }
  return { body: Buffer.concat(chunks), truncated };
}

function describeNetError(error: unknown, url: URL): string {
  const e = error as NodeJS.ErrnoException;
  const what = e.code ? `${e.code}: ${e.message}` : e.message || String(error);
  if (e.code === "ECONNREFUSED") return `${url.host} refused the connection`;
  if (e.code === "ECONNRESET") return `${url.host} closed the connection`;
  return `${url.host}: ${what}`;
}
