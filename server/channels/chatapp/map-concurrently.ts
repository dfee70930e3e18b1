/**
 * `work` for each item, at most `atOnce` running at a time, each started as soon as one
 * ends; the results in the items' order, whatever order they finish in. `work` must not
 * throw (a rejection would leave the others running unobserved).
 */
export async function mapConcurrently<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane))
  return results
}
