// Runs async work over a list with bounded concurrency, stopping early when the signal aborts.
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
