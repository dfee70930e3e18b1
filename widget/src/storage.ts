/**
 * localStorage/sessionStorage that never throws: storage may be blocked (privacy modes,
 * third-party frames) and the widget must still work, only without memory.
 */
export interface KeyValueStore {
  get(name: string): string | null
  set(name: string, value: string | null): void
}

export function browserStore(kind: 'localStorage' | 'sessionStorage', prefix: string): KeyValueStore {
  const area = (): Storage | undefined => {
    try {
      return window[kind]
    } catch {
      return undefined
    }
  }
  return {
    get(name) {
      try {
        return area()?.getItem(`${prefix}${name}`) ?? null
      } catch {
        return null
      }
    },
    set(name, value) {
      try {
        if (value === null) area()?.removeItem(`${prefix}${name}`)
        else area()?.setItem(`${prefix}${name}`, value)
      } catch {}
    },
  }
}
