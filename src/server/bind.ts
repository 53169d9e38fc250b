import { isIP } from "node:net";

/** The host the server binds to unless told otherwise: this machine only. */
export const DEFAULT_HOST = "127.0.0.1";

/** Whether `host` reaches only this machine: a loopback address or `localhost`. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) return bare === "::1";
  return false;
}

/**
 * Whether the server may bind `host`: loopback always; anything else only when the person said so
 * with --expose (every request still needs the token). Pure: the command reports the refusal.
 */
export function decideBind(host: string, expose: boolean): { ok: true } | { ok: false; reason: string } {
  if (isLoopback(host)) return { ok: true };
  if (expose) return { ok: true };
  return {
    ok: false,
    reason: `--host ${host} reaches beyond this machine: add --expose to bind it (every request still needs the token)`,
  };
}

/** A Host header's (or Origin's) host and port: `localhost:4096`, `[::1]:4096`, `127.0.0.1`. */
function hostOf(header: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header);
  return match?.[1];
}

/**
 * Whether a request may reach the API, by where it says it is going and where it comes from —
 * before its token is looked at. Bound on loopback, its Host must name loopback (a page whose name
 * was rebound to 127.0.0.1 says its own name); from a browser (an Origin), only this very server's
 * own origin — a cross-site page is refused even if it somehow holds the token. Pure: the server
 * answers 403 with the reason.
 */
export function decideRequestPlace(
  place: { host: string | undefined; origin: string | undefined },
  loopbackOnly: boolean,
): { ok: true } | { ok: false; reason: string } {
  const host = place.host?.trim();
  if (loopbackOnly && host !== undefined) {
    const name = hostOf(host);
    if (name === undefined || !isLoopback(name)) {
      return { ok: false, reason: "forbidden: this server answers only requests addressed to this machine (Host)" };
    }
  }
  if (place.origin !== undefined) {
    const origin = place.origin.trim().toLowerCase();
    if (host === undefined || origin !== `http://${host.toLowerCase()}`) {
      return { ok: false, reason: "forbidden: a request from a web page of another origin (Origin)" };
    }
  }
  return { ok: true };
}
