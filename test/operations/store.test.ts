import { SQL } from 'bun'
import { expect, test } from 'bun:test'
import { postgresOperationsStore } from '../../server/operations/postgres-store.ts'
import { freePort } from '../support/free-port.ts'
import { onBothDatabases } from '../support/both-databases.ts'

onBothDatabases('the operations store', (database) => {
  test('names no installation workspace before the first start made one', async () => {
    expect(await database().stores.operations.installationWorkspaceId()).toBeNull()
  })

  // On a tie the smaller id in byte order, as SQLite compares text ('B' before 'a'; a locale's collation says otherwise).
  test("names the installation's workspace: the first created, the smaller id on a tie, whatever was made after", async () => {
    const { exec, stores } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES
      ('01K0000000000000000000000B', 'later', '2026-01-02T00:00:00.000Z'),
      ('01K000000000000000000000Za', 'tie, larger id', '2026-01-01T00:00:00.000Z'),
      ('01K000000000000000000000ZB', 'first', '2026-01-01T00:00:00.000Z')`)
    expect(await stores.operations.installationWorkspaceId()).toBe('01K000000000000000000000ZB')
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('01K0000000000000000000000A', 'newest', '2026-02-01T00:00:00.000Z')`)
    expect(await stores.operations.installationWorkspaceId()).toBe('01K000000000000000000000ZB')
  })

  test("gives the database's size in bytes, which grows with what is stored", async () => {
    const { exec, stores } = database()
    const before = await stores.operations.databaseBytes()
    expect(Number.isInteger(before)).toBe(true)
    expect(before).toBeGreaterThan(0)
    // Random text: neither side may compress it away.
    const noise = Array.from({ length: 4000 }, () => crypto.randomUUID()).join('')
    for (let i = 0; i < 8; i++) await exec(`INSERT INTO instance_settings (key, value) VALUES ('noise-${i}', '${noise}')`)
    expect(await stores.operations.databaseBytes()).toBeGreaterThan(before + 500_000)
  })

  test('answers a ping while the database answers', async () => {
    expect(await database().stores.operations.ping()).toBeUndefined()
  })
})

// SQLite's side with its file closed: test/http/openapi.test.ts (GET /readyz answers 503).
test('on PostgreSQL, a ping rejects when the server does not answer', async () => {
  const nowhere = new SQL({ url: `postgres://parley@127.0.0.1:${freePort()}/parley`, max: 1, connectionTimeout: 2 })
  try {
    await expect(postgresOperationsStore(nowhere).ping()).rejects.toThrow()
  } finally {
    await nowhere.close()
  }
})
