import type { KeySummary } from '../../server/workspaces/service.ts'
import { afterAll, describe, expect, test } from 'bun:test'
import { systemClock } from '../../server/support/clock.ts'
import { KEY_CACHE_MS, workspaceService } from '../../server/workspaces/service.ts'
import { workspaceStore } from '../../server/workspaces/store.ts'
import { testApp } from '../support/test-app.ts'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('API keys', () => {
  const app = testApp()
  const keys = app.services.workspaces
  afterAll(() => app.close())

  test('look like pk_ plus 40 base62 characters and open their workspace', () => {
    const created = keys.createKey({ name: 'ci' })
    expect(created.key).toMatch(/^pk_[0-9A-Za-z]{40}$/)
    expect(keys.authenticate(created.key)).toBe(created.workspaceId)
  })

  test('are stored only as a hash: the database never holds the key itself', () => {
    const created = keys.createKey({ name: 'hashed' })
    const row = app.db.query<{ hash: string; prefix: string }, [string]>('SELECT hash, prefix FROM api_keys WHERE prefix = ?').get(created.prefix)
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/)
    const dump = JSON.stringify(app.db.query('SELECT * FROM api_keys').all())
    expect(dump).not.toContain(created.key)
  })

  test('a key differing only after its prefix is refused', () => {
    const created = keys.createKey({ name: 'prefix' })
    const last = created.key.at(-1) === 'a' ? 'b' : 'a'
    expect(keys.authenticate(created.key.slice(0, -1) + last)).toBeNull()
  })

  test('without a workspace option a key opens the first workspace; --new-workspace makes another', () => {
    const first = keys.createKey({ name: 'a' })
    const again = keys.createKey({ name: 'b' })
    const separate = keys.createKey({ name: 'c', newWorkspace: true })
    expect(again.workspaceId).toBe(first.workspaceId)
    expect(separate.workspaceId).not.toBe(first.workspaceId)
    expect(keys.createKey({ name: 'd', workspaceId: separate.workspaceId }).workspaceId).toBe(separate.workspaceId)
  })

  test('an unknown workspace id is refused', () => {
    expect(() => keys.createKey({ name: 'x', workspaceId: 'nope' })).toThrow('no workspace')
  })

  test('revoking by prefix stops the key at once; revoking again finds nothing', () => {
    const created = keys.createKey({ name: 'revoke me' })
    expect(keys.revokeKey(created.prefix)?.revoked_at).toBeTruthy()
    expect(keys.authenticate(created.key)).toBeNull()
    expect(keys.revokeKey(created.prefix)).toBeNull()
  })

  test('listing shows prefixes and names, never keys or hashes', () => {
    const listed = JSON.stringify(keys.listKeys())
    expect(listed).not.toContain(app.key)
    expect(listed).not.toMatch(/[0-9a-f]{64}/)
    const { last_used_at, ...first } = keys.listKeys()[0] as KeySummary
    expect(first).toEqual({ prefix: expect.stringMatching(/^pk_\w{8}$/), name: 'test', workspace_id: expect.any(String), created_at: expect.any(String), revoked_at: null })
    expect(last_used_at === null || ISO.test(last_used_at)).toBe(true)
  })

  test('a key revoked by another process stops working once the short cache expires', () => {
    let clock = 0
    const server = workspaceService(workspaceStore(app.db), systemClock, () => clock)
    const cli = workspaceService(workspaceStore(app.db), systemClock)
    const created = cli.createKey({ name: 'elsewhere' })
    expect(server.authenticate(created.key)).toBe(created.workspaceId)
    cli.revokeKey(created.prefix)
    clock += KEY_CACHE_MS - 1
    expect(server.authenticate(created.key)).toBe(created.workspaceId)
    clock += 2
    expect(server.authenticate(created.key)).toBeNull()
  })
})
