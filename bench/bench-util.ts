/** Small helpers shared by the benchmarks: timing, medians, printing. Benchmarks are not tests. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function timeIt<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export async function medianMs(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timeIt(fn)).ms);
  return median(times);
}

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

export function line(label: string, value: string | number): void {
  console.log(`  ${label.padEnd(52)} ${value}`);
}
