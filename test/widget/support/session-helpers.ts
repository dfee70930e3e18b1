import type { KeyValueStore } from '../../../widget/src/storage.ts'

/** The page's storage for a widget session under test: a map, forgotten with the test. */
export function memoryStore(): KeyValueStore {
  const values = new Map<string, string>()
  return { get: (name) => values.get(name) ?? null, set: (name, value) => (value === null ? values.delete(name) : values.set(name, value)) }
}

/** Waits, up to 3 s, for what the session shows to meet `condition`. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (condition()) return
    await Bun.sleep(10)
  }
  throw new Error(`timed out waiting for ${what}`)
}
