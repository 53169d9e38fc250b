/** Matches seat ids against a glob where `*` is any run of characters and `?` one character. */
export function seatGlob(pattern: string): (id: string) => boolean {
  const source = pattern
    .split("")
    .map((ch) => (ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  const regex = new RegExp(`^${source}$`);
  return (id) => regex.test(id);
}
