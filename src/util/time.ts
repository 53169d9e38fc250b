/**
 * Times as the person's own clock shows them: the machine's time zone (TZ, else the system's),
 * read through Intl. Lists and default titles use these; JSON keeps ISO times in UTC.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, timeZone?: string): Record<string, string> {
  const key = timeZone ?? "";
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      ...(timeZone ? { timeZone } : {}),
    });
    formats.set(key, format);
  }
  return Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
}

/** `YYYY-MM-DD HH:MM` in the machine's time zone. */
export function localTime(ms: number, timeZone?: string): string {
  const p = parts(ms, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** `HH:MM` in the machine's time zone. */
export function clockTime(ms: number, timeZone?: string): string {
  const p = parts(ms, timeZone);
  return `${p.hour}:${p.minute}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago `ms` was, roughly, as a person says it: "just now", "3 min ago", "5 h ago",
 * "2 days ago". A time ahead of `now` (another machine's clock) is "just now", never negative.
 */
export function age(ms: number, now: number = Date.now()): string {
  const gone = Math.max(0, now - ms);
  if (gone < MINUTE) return "just now";
  if (gone < HOUR) return `${Math.floor(gone / MINUTE)} min ago`;
  if (gone < DAY) return `${Math.floor(gone / HOUR)} h ago`;
  const days = Math.floor(gone / DAY);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}
