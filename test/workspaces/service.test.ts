import { expect, test } from 'bun:test'
import { systemClock } from '../../server/support/clock.ts'
import { KEY_CACHE_MS, type KeySummary, workspaceService } from '../../server/workspaces/service.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

onBothDatabases('API keys', (database) => {
  const service = () => workspaceService({ ...database(), now: systemClock })

  test('the first key makes the first workspace; keys look like pk_ plus 40 base62 characters and open their workspace', async () => {
    const keys = service()
    expect(await keys.hasWorkspaces()).toBe(false)
    const created = await keys.createKey({ name: 'ci' })
    expect(created.key).toMatch(/^pk_[0-9A-Za-z]{40}$/)
    expect(await keys.hasWorkspaces()).toBe(true)
    expect(await keys.authenticate(created.key)).toBe(created.workspaceId)
    expect((await database().stores.workspaces.getWorkspace(created.workspaceId))?.name).toBe('Default workspace')
  })

  test('are stored only as a hash: the database never holds the key itself', async () => {
    const created = await service().createKey({ name: 'hashed' })
    const [row] = await database().query<{ hash: string }>(`SELECT hash FROM api_keys WHERE prefix = '${created.prefix}'`)
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/)
    const dump = JSON.stringify(await database().query('SELECT * FROM api_keys'))
    expect(dump).not.toContain(created.key)
  })

  test('a key differing only after its prefix is refused, and so is anything not shaped like a key', async () => {
    const keys = service()
    const created = await keys.createKey({ name: 'prefix' })
    const last = created.key.at(-1) === 'a' ? 'b' : 'a'
    expect(await keys.authenticate(created.key.slice(0, -1) + last)).toBeNull()
    expect(await keys.authenticate('pk_short')).toBeNull()
    expect(await keys.authenticate('not a key at all, but long enough')).toBeNull()
  })

  test('without a workspace option a key opens the first workspace; --new-workspace makes another', async () => {
    const keys = service()
    const first = await keys.createKey({ name: 'a' })
    const again = await keys.createKey({ name: 'b' })
    const separate = await keys.createKey({ name: 'c', newWorkspace: true })
    expect(again.workspaceId).toBe(first.workspaceId)
    expect(separate.workspaceId).not.toBe(first.workspaceId)
    expect((await keys.createKey({ name: 'd', workspaceId: separate.workspaceId })).workspaceId).toBe(separate.workspaceId)
    expect((await keys.keysOf(separate.workspaceId)).map((key) => key.name)).toEqual(['d', 'c'])
  })

  test('an unknown workspace id is refused, and nothing is stored', async () => {
    const keys = service()
    const before = (await keys.listKeys()).length
    await expect(keys.createKey({ name: 'x', workspaceId: 'nope' })).rejects.toThrow('no workspace')
    expect((await keys.listKeys()).length).toBe(before)
  })

  test('revoking by prefix stops the key at once, even one just used from memory; revoking again finds nothing', async () => {
    const keys = service()
    const created = await keys.createKey({ name: 'revoke me' })
    expect(await keys.authenticate(created.key)).toBe(created.workspaceId)
    expect((await keys.revokeKey(created.prefix))?.revoked_at).toMatch(ISO)
    expect(await keys.authenticate(created.key)).toBeNull()
    expect(await keys.revokeKey(created.prefix)).toBeNull()
  })

  test("a workspace's revoke stops its key at once and cannot reach another workspace's", async () => {
    const keys = service()
    const mine = await keys.createKey({ name: 'mine', newWorkspace: true })
    const theirs = await keys.createKey({ name: 'theirs', newWorkspace: true })
    expect(await keys.authenticate(mine.key)).toBe(mine.workspaceId)
    expect(await keys.revokeKeyOf(mine.workspaceId, theirs.prefix)).toBeNull()
    expect(await keys.authenticate(theirs.key)).toBe(theirs.workspaceId)
    expect((await keys.revokeKeyOf(mine.workspaceId, mine.prefix))?.prefix).toBe(mine.prefix)
    expect(await keys.authenticate(mine.key)).toBeNull()
  })

  test('listing shows prefixes and names, never keys or hashes; a used key shows when', async () => {
    const keys = service()
    const created = await keys.createKey({ name: 'listed' })
    await keys.authenticate(created.key)
    // The note of the last use is written after the answer, in a unit of its own.
    const lastUsed = async () => (await keys.listKeys()).find((key) => key.prefix === created.prefix)?.last_used_at
    for (let tries = 0; tries < 100 && !(await lastUsed()); tries++) await Bun.sleep(10)
    const listed = await keys.listKeys()
    expect(JSON.stringify(listed)).not.toContain(created.key)
    expect(JSON.stringify(listed)).not.toMatch(/[0-9a-f]{64}/)
    const summary = listed.find((key) => key.prefix === created.prefix) as KeySummary
    expect(summary).toEqual({ prefix: created.prefix, name: 'listed', workspace_id: created.workspaceId, created_at: expect.stringMatching(ISO), revoked_at: null, last_used_at: expect.stringMatching(ISO) })
  })

  test('a key verified in the last second opens its workspace from memory: the database is not asked', async () => {
    let clock = 0
    const { stores, units } = database()
    let lookups = 0
    const counted = { workspaces: { ...stores.workspaces, findKeyByPrefix: (prefix: string) => (lookups++, stores.workspaces.findKeyByPrefix(prefix)) } }
    const server = workspaceService({ stores: counted, units, now: systemClock, monotonicMs: () => clock })
    const created = await server.createKey({ name: 'hot path' })
    lookups = 0
    for (let i = 0; i < 5; i++) expect(await server.authenticate(created.key)).toBe(created.workspaceId)
    expect(lookups).toBe(1)
    clock += KEY_CACHE_MS
    expect(await server.authenticate(created.key)).toBe(created.workspaceId)
    expect(lookups).toBe(2)
    // Unknown keys are never remembered: each one asks.
    for (let i = 0; i < 3; i++) expect(await server.authenticate(`pk_${'0'.repeat(40)}`)).toBeNull()
    expect(lookups).toBe(5)
  })

  test('a key revoked by another process (or node) stops working once the short cache expires', async () => {
    let clock = 0
    const elsewhere = database().otherNode() ?? database()
    const server = workspaceService({ ...database(), now: systemClock, monotonicMs: () => clock })
    const cli = workspaceService({ ...elsewhere, now: systemClock })
    const created = await cli.createKey({ name: 'elsewhere' })
    expect(await server.authenticate(created.key)).toBe(created.workspaceId)
    await cli.revokeKey(created.prefix)
    clock += KEY_CACHE_MS - 1
    expect(await server.authenticate(created.key)).toBe(created.workspaceId)
    clock += 2
    expect(await server.authenticate(created.key)).toBeNull()
  })
})
