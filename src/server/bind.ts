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
