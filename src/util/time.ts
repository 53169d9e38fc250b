/**
 * Times as the person's own clock shows them: the machine's time zone (TZ, else the system's),
 * read through Intl. Lists and default titles use these; JSON keeps ISO times in UTC.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function parts(ms: number, timeZone?: string): Record<string, string> {
  // The machine's own zone needs no Intl: Date's local fields read the same zone (TZ, else the
  // system's) at no set-up cost, where a first Intl formatter loads ICU's calendar data — some
  // 40 ms at the start of every run that names a time (a new session's provisional title).
  if (timeZone === undefined) {
    const at = new Date(ms);
    const two = (n: number) => String(n).padStart(2, "0");
    return {
      year: String(at.getFullYear()).padStart(4, "0"),
      month: two(at.getMonth() + 1),
      day: two(at.getDate()),
      hour: two(at.getHours()),
      minute: two(at.getMinutes()),
    };
  }
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone,
    });
    formats.set(timeZone, format);
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
