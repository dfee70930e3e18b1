import { describe, expect, test } from 'bun:test'
import { RowCache } from '../../server/db/row-cache.ts'

describe('RowCache', () => {
  test('keeps at most its limit, dropping the row used least recently', () => {
    const cache = new RowCache<number>(2)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.get('a')
    cache.set('c', 3)
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3])
    expect(cache.size).toBe(2)
  })

  test('changes a cached row in place and leaves a missing one missing', () => {
    const cache = new RowCache<{ n: number }>(5)
    cache.set('a', { n: 1 })
    cache.update('a', (row) => void (row.n = 2))
    cache.update('b', (row) => void (row.n = 2))
    expect(cache.get('a')).toEqual({ n: 2 })
    expect(cache.get('b')).toBeUndefined()
  })

  test('forgets one row or all of them', () => {
    const cache = new RowCache<number>(5)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.delete('a')
    expect(cache.get('a')).toBeUndefined()
    cache.clear()
    expect(cache.size).toBe(0)
  })
})
