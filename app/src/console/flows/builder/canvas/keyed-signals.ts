import { type Accessor, createSignal, type Setter } from 'solid-js'

/**
 * A signal per key, made when first read or written: a card that moves re-draws itself and
 * its edges only, not every card (what solid-js/store would do, without its weight in the
 * app's first load).
 */
export function keyedSignals<T>(initial: () => T) {
  const signals = new Map<string, [Accessor<T>, Setter<T>]>()
  const [keys, setKeys] = createSignal(0)
  const entry = (key: string) => {
    let found = signals.get(key)
    if (!found) {
      found = createSignal<T>(initial(), { equals: false })
      signals.set(key, found)
      setKeys((n) => n + 1)
    }
    return found
  }
  return {
    get: (key: string): T => entry(key)[0](),
    set: (key: string, value: T): void => void entry(key)[1](() => value),
    has: (key: string) => signals.has(key),
    /** Every key so far (tracked: a new key re-runs the reader). */
    keys: (): string[] => (keys(), [...signals.keys()]),
  }
}
