/** A moment as `YYYY-MM-DD HH:MM` (UTC), for lists people scan: sessions by last activity. */
export function shortTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}
