import { describe, expect, test } from 'bun:test'
import { isPathAllowed } from '../../server/protocol/allowed-paths.ts'

describe('path-based visibility', () => {
  test.each([
    [null, '/anything', true],
    [['/contact'], '/contact', true],
    [['/contact'], '/contact/', false],
    [['/contact'], '/contacts', false],
    [['/shop/*'], '/shop', true],
    [['/shop/*'], '/shop/', true],
    [['/shop/*'], '/shop/shoes/red', true],
    [['/shop/*'], '/shopping', false],
    [['/*'], '/', true],
    [['/*'], '/deep/path', true],
    [['/a', '/b/*'], '/b/c', true],
    [[], '/contact', false],
  ])('%j on %s: %p', (patterns, path, expected) => {
    expect(isPathAllowed(patterns, path)).toBe(expected)
  })
})
