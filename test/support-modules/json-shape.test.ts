import { describe, expect, test } from 'bun:test'
import { describeJsonShapeBreach, jsonShapeBreach } from '../../server/support/json-shape.ts'

const limits = { maxDepth: 4, maxKeys: 3 }

describe('jsonShapeBreach', () => {
  test('a document within both limits passes', () => {
    expect(jsonShapeBreach('{"a":[1,{"b":[2]}],"c":3}', limits)).toBeNull()
    expect(jsonShapeBreach('"plain"', limits)).toBeNull()
  })

  test('nesting one level past the limit is a depth breach, objects and arrays alike', () => {
    expect(jsonShapeBreach('[[[[1]]]]', limits)).toBeNull()
    expect(jsonShapeBreach('[[[[[1]]]]]', limits)).toEqual({ limit: 'depth', max: 4 })
    expect(jsonShapeBreach('{"a":{"a":{"a":{"a":{}}}}}', { maxDepth: 4, maxKeys: 99 })).toEqual({ limit: 'depth', max: 4 })
  })

  test('object members are counted across the whole document', () => {
    expect(jsonShapeBreach('[{"a":1},{"b":2},{"c":3}]', limits)).toBeNull()
    expect(jsonShapeBreach('[{"a":1},{"b":2},{"c":3,"d":4}]', limits)).toEqual({ limit: 'keys', max: 3 })
  })

  test('brackets, colons and escaped quotes inside strings do not count', () => {
    expect(jsonShapeBreach('{"a":"[[[[[[{:}:}:]]]]]","b":"\\"[[[[[[:::"}', limits)).toBeNull()
    expect(jsonShapeBreach('["\\\\",[[[[1]]]]]', limits)).toEqual({ limit: 'depth', max: 4 })
  })

  test('a deep document is refused long before its end', () => {
    const deep = '['.repeat(1_000_000)
    expect(jsonShapeBreach(deep, { maxDepth: 64, maxKeys: 10 })).toEqual({ limit: 'depth', max: 64 })
  })

  test('the description names the limit', () => {
    expect(describeJsonShapeBreach({ limit: 'depth', max: 64 }, 'the body')).toBe('the body is nested more than 64 levels deep')
    expect(describeJsonShapeBreach({ limit: 'keys', max: 10 }, 'the frame')).toBe('the frame has more than 10 object members')
  })
})
