import { describe, expect, test } from 'bun:test'
import { isPathAllowed } from '../../server/protocol/allowed-paths.ts'
import { interceptHistory, watchVisibility } from '../../widget/src/visibility.ts'

describe('allowed_paths matching', () => {
  test.each([
    [null, '/anything', true],
    [['/contact'], '/contact', true],
    [['/contact'], '/contact/', false],
    [['/contact'], '/contact/us', false],
    [['/contact'], '/', false],
    [['/shop/*'], '/shop', true],
    [['/shop/*'], '/shop/', true],
    [['/shop/*'], '/shop/shoes/red', true],
    [['/shop/*'], '/shopping', false],
    [['/shop/*'], '/', false],
    [['/*'], '/', true],
    [['/*'], '/deep/path', true],
    [['/contact', '/shop/*'], '/shop/x', true],
    [[], '/', false],
  ] as const)('%j on %p: %p', (patterns, path, expected) => {
    expect(isPathAllowed(patterns as readonly string[] | null, path)).toBe(expected)
  })
})

/** A stand-in for window with a working location, history and popstate. */
function fakeWindow(path: string) {
  const listeners = new Set<() => void>()
  const win = {
    location: { pathname: path },
    history: {
      pushState(_state: unknown, _title: string, url: string) {
        win.location.pathname = new URL(url, 'http://shop.test').pathname
      },
      replaceState(_state: unknown, _title: string, url: string) {
        win.location.pathname = new URL(url, 'http://shop.test').pathname
      },
    },
    addEventListener: (_type: 'popstate', listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: 'popstate', listener: () => void) => listeners.delete(listener),
    back(path: string) {
      win.location.pathname = path
      for (const listener of listeners) listener()
    },
    listeners,
  }
  return win
}

describe('following client-side navigation', () => {
  test('interceptHistory runs the original method first, then the callback, keeping the return value and this', () => {
    const calls: string[] = []
    const history = {
      marker: 'history',
      pushState(this: { marker: string }, _s: unknown, _t: string, url: string) {
        calls.push(`push ${url} on ${this.marker}`)
        return 'pushed'
      },
      replaceState(_s: unknown, _t: string, url: string) {
        calls.push(`replace ${url}`)
      },
    }
    const restore = interceptHistory(history, () => calls.push('changed'))
    expect(history.pushState(null, '', '/a') as unknown).toBe('pushed')
    history.replaceState(null, '', '/b')
    expect(calls).toEqual(['push /a on history', 'changed', 'replace /b', 'changed'])
    restore()
    history.pushState(null, '', '/c')
    expect(calls.at(-1)).toBe('push /c on history')
  })

  test('restoring leaves alone a wrapper another script put on top of ours', () => {
    const history = { pushState() {}, replaceState() {} }
    const restore = interceptHistory(history, () => {})
    const theirs = () => {}
    history.pushState = theirs
    restore()
    expect(history.pushState).toBe(theirs)
  })

  test('hides on a non-matching page and shows again on pushState, replaceState and back', () => {
    const win = fakeWindow('/shop')
    const seen: boolean[] = []
    const stop = watchVisibility(win, ['/shop/*', '/contact'], (visible) => seen.push(visible))
    expect(seen).toEqual([true])
    win.history.pushState(null, '', '/shop/shoes')
    expect(seen).toEqual([true])
    win.history.pushState(null, '', '/about')
    win.history.replaceState(null, '', '/contact')
    win.history.pushState(null, '', '/blog?page=2')
    win.back('/contact')
    expect(seen).toEqual([true, false, true, false, true])
    stop()
    win.history.pushState(null, '', '/about')
    expect(seen).toHaveLength(5)
    expect(win.listeners.size).toBe(0)
  })

  test('starts hidden on a page that does not match', () => {
    const seen: boolean[] = []
    watchVisibility(fakeWindow('/about'), ['/shop/*'], (visible) => seen.push(visible))
    expect(seen).toEqual([false])
  })

  test('with no allowed_paths it shows everywhere and leaves history alone', () => {
    const win = fakeWindow('/anything')
    const push = win.history.pushState
    const seen: boolean[] = []
    watchVisibility(win, null, (visible) => seen.push(visible))
    expect(seen).toEqual([true])
    expect(win.history.pushState).toBe(push)
    expect(win.listeners.size).toBe(0)
  })
})
