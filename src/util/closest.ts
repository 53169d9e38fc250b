/** Edit distance between two strings (Levenshtein), used to suggest what the person meant. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidates nearest to `input`, best first. A candidate that starts with or contains
 * the input ranks ahead of one that is merely a few edits away.
 */
export function closest(input: string, candidates: readonly string[], limit = 3): string[] {
  const needle = input.toLowerCase();
  const scored = candidates.map((candidate) => {
    const hay = candidate.toLowerCase();
    let score = editDistance(needle, hay);
    if (hay.startsWith(needle) || needle.startsWith(hay)) score -= 100;
    else if (hay.includes(needle)) score -= 50;
    return { candidate, score };
  });
  const threshold = Math.max(2, Math.ceil(needle.length / 2));
  return scored
    .filter((s) => s.score <= threshold)
    .sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate))
    .slice(0, limit)
    .map((s) => s.candidate);
}
