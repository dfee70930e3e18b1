const DONE: Promise<void> = Promise.resolve()

/**
 * A SQLite store method's answer as the store seam's Promise: bun:sqlite has already done the
 * work, so a write answers with one shared resolved promise and a read with its value, and a
 * failure is a rejected promise as on PostgreSQL, never a throw. Cheaper than an `async`
 * method (no promise made per write): every chat turn makes several.
 */
export function settled<T>(work: () => T): Promise<T> {
  try {
    const value = work()
    return value === undefined ? (DONE as Promise<T>) : Promise.resolve(value)
  } catch (error) {
    return Promise.reject(error)
  }
}
