import { isPathAllowed } from '../../server/protocol/allowed-paths.ts'

/**
 * Path-based visibility: the widget shows only on paths allowed_paths matches, and follows
 * client-side navigation by wrapping history.pushState/replaceState and listening to popstate.
 */

interface HistoryLike {
  pushState(...args: any[]): void
  replaceState(...args: any[]): void
}

/**
 * Wraps pushState and replaceState so `afterChange` runs after each call. Returns a function
 * that restores them (if nobody wrapped them again since).
 */
export function interceptHistory(history: HistoryLike, afterChange: () => void): () => void {
  const originals = { pushState: history.pushState, replaceState: history.replaceState }
  const wrapped = {} as Record<'pushState' | 'replaceState', (...args: any[]) => void>
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = originals[name]
    wrapped[name] = function (this: unknown, ...args: any[]) {
      const result = original.apply(this, args)
      afterChange()
      return result
    }
    history[name] = wrapped[name]
  }
  return () => {
    for (const name of ['pushState', 'replaceState'] as const) {
      if (history[name] === wrapped[name]) history[name] = originals[name]
    }
  }
}

interface WindowLike {
  location: { pathname: string }
  history: HistoryLike
  addEventListener(type: 'popstate', listener: () => void): void
  removeEventListener(type: 'popstate', listener: () => void): void
}

/**
 * Calls `onChange(visible)` now and whenever navigation changes whether the current path is
 * allowed. With no allowed_paths it reports visible once and watches nothing.
 */
export function watchVisibility(win: WindowLike, allowedPaths: readonly string[] | null, onChange: (visible: boolean) => void): () => void {
  let visible = isPathAllowed(allowedPaths, win.location.pathname)
  onChange(visible)
  if (!allowedPaths) return () => {}
  const check = () => {
    const next = isPathAllowed(allowedPaths, win.location.pathname)
    if (next === visible) return
    visible = next
    onChange(visible)
  }
  const restore = interceptHistory(win.history, check)
  win.addEventListener('popstate', check)
  return () => {
    restore()
    win.removeEventListener('popstate', check)
  }
}
