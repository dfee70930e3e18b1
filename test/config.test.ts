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

describe('PARLEY_BACKUP_DIR, PARLEY_BACKUP_EVERY, PARLEY_BACKUP_KEEP', () => {
  test('off unless PARLEY_BACKUP_EVERY is set; the folder defaults to backups/ in the data folder; 7 kept', () => {
    expect(loadConfig({}).backups).toBeNull()
    expect(loadConfig({ PARLEY_DATA_DIR: '/srv/parley', PARLEY_BACKUP_EVERY: '6h' }).backups).toEqual({ dir: '/srv/parley/backups', everyMs: 6 * 3_600_000, keep: 7 })
    expect(loadConfig({ PARLEY_BACKUP_EVERY: '30s', PARLEY_BACKUP_DIR: '/var/backups/parley', PARLEY_BACKUP_KEEP: '30' }).backups).toEqual({ dir: '/var/backups/parley', everyMs: 30_000, keep: 30 })
    expect(loadConfig({ PARLEY_BACKUP_EVERY: '1d' }).backups?.everyMs).toBe(86_400_000)
    expect(loadConfig({ PARLEY_BACKUP_EVERY: '15m' }).backups?.everyMs).toBe(900_000)
  })

  test('a bad value fails at start with one clear line', () => {
    for (const bad of ['6', '6 hours', '1w', '-1h', '10s', '0d', '400d']) {
      expect(() => loadConfig({ PARLEY_BACKUP_EVERY: bad })).toThrow(
        new ConfigError(`PARLEY_BACKUP_EVERY must be a duration from 30s to 365d such as 30s, 15m, 6h or 1d, got "${bad}"`),
      )
    }
    expect(() => loadConfig({ PARLEY_BACKUP_DIR: '/var/backups/parley' })).toThrow(
      new ConfigError('PARLEY_BACKUP_DIR is set but PARLEY_BACKUP_EVERY is not: set how often to back up, such as 6h or 1d'),
    )
    expect(() => loadConfig({ PARLEY_BACKUP_EVERY: '1d', PARLEY_BACKUP_KEEP: '0' })).toThrow(new ConfigError('PARLEY_BACKUP_KEEP must be a whole number from 1 to 10000, got "0"'))
  })
})
