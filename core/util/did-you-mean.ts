/** Levenshtein distance, for did-you-mean suggestions on names typed by people and models. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/**
 * The closest candidate to `word`, or null when nothing is close enough to be a plausible typo
 * (distance at most a third of the longer name, minimum 2).
 */
export function didYouMean(word: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best === null) return null;
  const allowed = Math.max(2, Math.floor(Math.max(word.length, best.length) / 3));
  return bestDistance <= allowed ? best : null;
}

/** ` (did you mean 'x'?)` or the empty string: appended to "no such …" messages. */
export function suggestion(word: string, candidates: Iterable<string>): string {
  const best = didYouMean(word, candidates);
  return best === null ? "" : ` (did you mean '${best}'?)`;
}
