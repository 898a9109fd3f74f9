/**
 * A line diff for people reading a replacement before they promote it: `-` lines of the old text, `+` lines of the
 * new one, two lines of context around each change, `@@` before each hunk with where it starts. Longest common
 * subsequence over lines: tool modules are small, and a clear diff matters more than speed. Pure.
 */

/** One line of a diff: kept, removed from the old text, or added in the new one. */
interface DiffLine {
  op: " " | "-" | "+";
  text: string;
  /** Line numbers in the old and the new text (the one the line is not in is that of the next line). */
  oldLine: number;
  newLine: number;
}

const CONTEXT = 2;

/** Every line of both texts, in order, marked kept, removed or added. */
function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  const n = before.length;
  const m = after.length;
  // lcs[i][j]: length of the longest common subsequence of before[i..] and after[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      out.push({ op: " ", text: before[i]!, oldLine: i + 1, newLine: j + 1 });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // Removed lines first, then the lines that replace them.
      out.push({ op: "-", text: before[i]!, oldLine: i + 1, newLine: j + 1 });
      i++;
    } else {
      out.push({ op: "+", text: after[j]!, oldLine: i + 1, newLine: j + 1 });
      j++;
    }
  }
  return out;
}

/** The diff from `before` to `after` as text; "" when they are the same. */
export function lineDiff(before: string, after: string, labels = { before: "old", after: "new" }): string {
  const lines = diffLines(before.split("\n"), after.split("\n"));
  const changed = lines.map((l, k) => (l.op === " " ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return "";
  const out = [`--- ${labels.before}`, `+++ ${labels.after}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - CONTEXT);
    let end = changed[k]! + CONTEXT;
    // Changes closer than two contexts share a hunk.
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= end + 1) end = changed[++k]! + CONTEXT;
    k++;
    const hunk = lines.slice(start, Math.min(lines.length, end + 1));
    out.push(`@@ old line ${hunk[0]!.oldLine}, new line ${hunk[0]!.newLine} @@`);
    for (const l of hunk) out.push(`${l.op}${l.text}`);
  }
  return out.join("\n");
}
