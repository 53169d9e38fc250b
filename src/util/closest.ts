/**
 * Edit distance between two strings, used to suggest what the person meant: insertions,
 * deletions, substitutions and swaps of two neighbouring characters ("modle" is one swap from
 * "model") each cost one (optimal string alignment).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current[j] = best;
    }
    before = previous;
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
    .sort(
      (x, y) =>
        x.score - y.score ||
        // Equally near: the one of the same length (a swap, not a missing letter) reads likelier.
        Math.abs(x.candidate.length - input.length) - Math.abs(y.candidate.length - input.length) ||
        x.candidate.localeCompare(y.candidate),
    )
    .slice(0, limit)
    .map((s) => s.candidate);
}
