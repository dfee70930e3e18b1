import { describe, expect, test } from 'bun:test'
import { checkArguments } from '../../server/mcp/check-arguments.ts'

const withPattern = (pattern: string) => ({ type: 'object', properties: { value: { type: 'string', pattern } } })

describe('checkArguments', () => {
  test('each schema keeps its own pattern, whatever was compiled before', () => {
    expect(checkArguments(withPattern('^(a+)+$'), { value: 'b' })).toEqual([{ path: '/arguments/value', message: 'must match pattern "^(a+)+$"' }])
    expect(checkArguments(withPattern('^A-\\d+$'), { value: 'A-1042' })).toEqual([])
    expect(checkArguments(withPattern('^(a+)+$'), { value: 'aaa' })).toEqual([])
    expect(checkArguments(withPattern('^A-\\d+$'), { value: 'aaa' })).toHaveLength(1)
  })

  test('a catastrophic pattern runs in linear time on a long mismatch', () => {
    const errors = checkArguments(withPattern('^(a+)+$'), { value: `${'a'.repeat(100_000)}!` })
    expect(errors).toEqual([{ path: '/arguments/value', message: 'must match pattern "^(a+)+$"' }])
  })

  test('required and unknown arguments point at their own path, escaped as JSON Pointers', () => {
    const schema = { type: 'object', properties: { 'a/b': { type: 'string' } }, required: ['a/b'], additionalProperties: false }
    expect(checkArguments(schema, { 'x~y': 1 })).toEqual([
      { path: '/arguments/a~1b', message: 'is required' },
      { path: '/arguments/x~0y', message: 'is not an argument of this tool' },
    ])
  })

  test('a schema that cannot be compiled is left to the server', () => {
    expect(checkArguments({ type: 'object', properties: { v: { type: 'string', pattern: '(?<=a)b' } } }, { v: 'x' })).toEqual([])
    expect(checkArguments({ type: 'nonsense' }, { v: 'x' })).toEqual([])
  })
})
