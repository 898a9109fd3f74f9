/** What one benchmark module gives the harness (bench/run.ts): a table and, where it has one, a goal. */
export interface BenchResult {
  columns: string[];
  rows: string[][];
  /** The target this benchmark guards, and whether this run met it. */
  goal?: { text: string; met: boolean };
  notes?: string[];
}

/** A benchmark: a module under bench/ exporting one of these, listed in bench/run.ts. */
export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<BenchResult>;
}

/** Median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Microseconds with two decimals. */
export function micros(ms: number): string {
  return (ms * 1000).toFixed(2);
}
