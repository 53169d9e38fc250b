/**
 * Runs `worker` over `items` with at most `limit` running at once (at least one, whatever the
 * limit: a bad limit must never skip work silently); results keep input order. After a worker
 * throws no new item is started, and the first error is thrown once the running ones settle.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const lanes = Math.min(items.length, limit >= 1 ? Math.floor(limit) : 1);
  let next = 0;
  let failed = false;
  let firstError: unknown;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (!failed && next < items.length) {
        const index = next++;
        try {
          results[index] = await worker(items[index] as T, index);
        } catch (error) {
          if (!failed) firstError = error;
          failed = true;
        }
      }
    }),
  );
  if (failed) throw firstError;
  return results;
}

/**
 * Splits `items` into runs to execute one after another: consecutive items that may share a run
 * are grouped, and every `exclusive` item is a run of its own.
 */
export function batches<T>(items: readonly T[], exclusive: (item: T) => boolean): T[][] {
  const out: T[][] = [];
  let shared: T[] = [];
  for (const item of items) {
    if (!exclusive(item)) {
      shared.push(item);
      continue;
    }
    if (shared.length > 0) out.push(shared);
    shared = [];
    out.push([item]);
  }
  if (shared.length > 0) out.push(shared);
  return out;
}
