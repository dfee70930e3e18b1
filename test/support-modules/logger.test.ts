import { describe, expect, test } from 'bun:test'
import { createLogger, memorySink } from '../../server/support/logger.ts'

describe('the logger', () => {
  test('one JSON object per line: time, level and message first, then the fields in their order', () => {
    const sink = memorySink()
    const logger = createLogger('info', sink)
    logger.info('request', { method: 'GET', path: '/a "quoted" path\n', status: 200, nested: { a: [1, null] }, skipped: undefined })
    logger.warn('no fields')
    logger.error('empty fields', {})
    logger.debug('below the level', { x: 1 })
    expect(sink.lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true)
    const parsed = sink.lines.map((line) => JSON.parse(line))
    expect(parsed.map((line) => Object.keys(line))).toEqual([
      ['time', 'level', 'msg', 'method', 'path', 'status', 'nested'],
      ['time', 'level', 'msg'],
      ['time', 'level', 'msg'],
    ])
    expect(parsed[0]).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: 'info', msg: 'request', method: 'GET', path: '/a "quoted" path\n', status: 200, nested: { a: [1, null] } })
    expect(parsed[1]).toMatchObject({ level: 'warn', msg: 'no fields' })
  })

  test('a message with quotes or a line break stays one valid line', () => {
    const sink = memorySink()
    createLogger('debug', sink).debug('say "hi"\nthen go')
    expect(sink.lines).toHaveLength(1)
    expect(JSON.parse(sink.lines[0] as string).msg).toBe('say "hi"\nthen go')
  })
})
