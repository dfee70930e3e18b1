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

  test('reads through: a cached row without reading, a missing one read once and kept, nothing kept when nothing is found', () => {
    const cache = new RowCache<number>(5)
    let reads = 0
    const read = (value: number | undefined) => () => {
      reads++
      return value
    }
    expect(cache.through('a', read(1))).toBe(1)
    expect(cache.through('a', read(2))).toBe(1)
    expect(cache.through('b', read(undefined))).toBeUndefined()
    expect(cache.through('b', read(3))).toBe(3)
    expect(reads).toBe(3)
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
