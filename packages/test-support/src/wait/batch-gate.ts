/**
 * A gate that holds its callers in batches of `size` and lets each batch go together once it is
 * full; from the `total`-th caller on, nobody is held (the last batch may be short). Tests measure
 * a concurrency bound with it instead of a clock: when every task waits until `size` of them run
 * at once, a bound that let one more in shows it in the peak, and a bound below `size` never fills
 * a batch (the test's hang guard names it).
 */
export function batchGate(size: number, total: number): () => Promise<void> {
  if (!Number.isSafeInteger(size) || size < 1)
    throw new RangeError(`a batch size is a positive integer, got ${size}`);
  let arrived = 0;
  const waiting: (() => void)[] = [];
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      arrived++;
      if (waiting.length >= size || arrived >= total) for (const go of waiting.splice(0)) go();
    });
}
