/**
 * Runs work one at a time per key, in the order it was asked for, in this process: a
 * conversation's turns, once reading and writing them awaits. Work for a free key starts at
 * once, in the caller's tick; a key's queue is forgotten when it empties. (One promise per
 * run besides the work's own: this is on every chat turn's path.)
 */
export function keyedLock() {
  const tails = new Map<string, Promise<unknown>>()
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(key)
      const result = previous ? previous.then(work) : work()
      const done = () => {
        if (tails.get(key) === tail) tails.delete(key)
      }
      const tail: Promise<unknown> = result.then(done, done)
      tails.set(key, tail)
      return result
    },
    /** Keys with work running or waiting (for tests). */
    size: () => tails.size,
  }
}
