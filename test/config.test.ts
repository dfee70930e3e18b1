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

describe('PARLEY_ATTACHMENT_MAX_BYTES', () => {
  test('defaults to 10 MiB; takes 1 KiB to 100 MiB', () => {
    expect(loadConfig({}).attachmentMaxBytes).toBe(10 * 1024 * 1024)
    expect(loadConfig({ PARLEY_ATTACHMENT_MAX_BYTES: '5000000' }).attachmentMaxBytes).toBe(5_000_000)
    for (const bad of ['0', '1023', '104857601', '1e6']) {
      expect(() => loadConfig({ PARLEY_ATTACHMENT_MAX_BYTES: bad })).toThrow(new ConfigError(`PARLEY_ATTACHMENT_MAX_BYTES must be a whole number from 1024 to 104857600, got "${bad}"`))
    }
  })
})
