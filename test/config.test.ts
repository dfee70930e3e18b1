import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../server/config.ts'

describe('PARLEY_AUTH_FAILURE_LIMIT', () => {
  test('defaults to 20 failed API key attempts a minute per address; 0 turns the throttle off', () => {
    expect(loadConfig({}).authFailuresPerMinute).toBe(20)
    expect(loadConfig({ PARLEY_AUTH_FAILURE_LIMIT: '5' }).authFailuresPerMinute).toBe(5)
    expect(loadConfig({ PARLEY_AUTH_FAILURE_LIMIT: '0' }).authFailuresPerMinute).toBe(0)
  })

  test('anything but a whole number fails at start with one clear line', () => {
    for (const bad of ['-1', 'ten', '2.5']) {
      expect(() => loadConfig({ PARLEY_AUTH_FAILURE_LIMIT: bad })).toThrow(new ConfigError(`PARLEY_AUTH_FAILURE_LIMIT must be a whole number from 0 to 10000000, got "${bad}"`))
    }
  })
})
