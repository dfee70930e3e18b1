import { expect, test } from 'bun:test'
import type { SessionRow, UserRow } from '../../server/people/store.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = (day: number) => `2026-05-${String(day).padStart(2, '0')}T10:00:00.000Z`
const user = (id: string, workspace: string, email: string, day: number, extra: Partial<UserRow> = {}): UserRow => ({
  id,
  workspace_id: workspace,
  email,
  display_name: id,
  role: 'admin',
  password_hash: 'hash',
  disabled_at: null,
  locale: null,
  created_at: at(day),
  updated_at: null,
  ...extra,
})
const session = (id: string, userId: string, workspace: string, expires: number, lastSeen = 1): SessionRow => ({
  id,
  hash: `h-${id}`,
  user_id: userId,
  workspace_id: workspace,
  created_at: at(1),
  last_seen_at: at(lastSeen),
  expires_at: at(expires),
  user_agent: null,
  address: '127.0.0.1',
})

onBothDatabases('the people store', (database) => {
  test('finds people by e-mail whatever its case, in a workspace and across workspaces (oldest first)', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W1', 'one', '${at(1)}'), ('W2', 'two', '${at(1)}')`)
    await units.unit(async (tx) => {
      await tx.people.insertUser(user('U2', 'W2', 'Ada@Acme.io', 2))
      await tx.people.insertUser(user('U1', 'W1', 'ada@acme.io', 1))
      await tx.people.insertUser(user('U3', 'W1', 'sam@acme.io', 3, { role: 'agent', password_hash: null }))
    })
    expect((await stores.people.findUserByEmail('W1', 'ADA@acme.IO'))?.id).toBe('U1')
    expect((await stores.people.findUserByEmail('W2', 'ada@acme.io'))?.id).toBe('U2')
    expect(await stores.people.findUserByEmail('W2', 'sam@acme.io')).toBeUndefined()
    expect((await stores.people.findUsersByEmail('ada@ACME.io')).map((row) => row.id)).toEqual(['U1', 'U2'])
    expect(await stores.people.getUser('W1', 'U1')).toEqual(user('U1', 'W1', 'ada@acme.io', 1))
    expect(await stores.people.getUser('W2', 'U1')).toBeUndefined()
  })

  test('refuses a second person with the same e-mail in a workspace, whatever its case', async () => {
    const { units } = database()
    await expect(units.unit((tx) => tx.people.insertUser(user('U9', 'W1', 'SAM@acme.io', 4)))).rejects.toThrow()
  })

  test('lists and counts a workspace’s people; counts its active admins only', async () => {
    const { stores } = database()
    expect((await stores.people.listUsers('W1', 10, 0)).map((row) => row.id)).toEqual(['U1', 'U3'])
    expect((await stores.people.listUsers('W1', 1, 1)).map((row) => row.id)).toEqual(['U3'])
    expect((await stores.people.listAllUsers()).map((row) => row.id)).toEqual(['U1', 'U3', 'U2'])
    expect(await stores.people.countUsers('W1')).toBe(2)
    expect(await stores.people.countActiveAdmins('W1')).toBe(1)
  })

  test('updates a person of the workspace and answers the row; another workspace’s is untouched', async () => {
    const { stores, units } = database()
    const changed = await units.unit((tx) => tx.people.updateUser({ ...user('U3', 'W1', 'sam@acme.io', 3), display_name: 'Sam', role: 'admin', updated_at: at(5) }))
    expect(changed).toMatchObject({ id: 'U3', display_name: 'Sam', role: 'admin', password_hash: 'hash', updated_at: at(5) })
    expect(await units.unit((tx) => tx.people.updateUser({ ...user('U3', 'W2', 'sam@acme.io', 3) }))).toBeUndefined()
    expect(await stores.people.countActiveAdmins('W1')).toBe(2)
  })

  test('sessions: found by hash with their person’s role, live until they expire or the person is disabled, ended one or all', async () => {
    const { stores, units } = database()
    await units.unit(async (tx) => {
      await tx.people.insertSession(session('S1', 'U1', 'W1', 20, 2))
      await tx.people.insertSession(session('S2', 'U1', 'W1', 20, 3))
      await tx.people.insertSession(session('S3', 'U3', 'W1', 20))
    })
    expect(await stores.people.findSession('h-S1')).toEqual({ ...session('S1', 'U1', 'W1', 20, 2), role: 'admin', disabled_at: null })
    expect(await stores.people.findSession('h-none')).toBeUndefined()
    expect((await stores.people.listSessions('U1')).map((row) => row.id)).toEqual(['S2', 'S1'])
    await units.unit((tx) => tx.people.touchSession('S1', at(4), at(25)))
    expect((await stores.people.listSessions('U1')).map((row) => [row.id, row.last_seen_at, row.expires_at])).toEqual([['S1', at(4), at(25)], ['S2', at(3), at(20)]])
    expect(await stores.people.isSessionLive('S2', at(19))).toBe(true)
    expect(await stores.people.isSessionLive('S2', at(20))).toBe(false)
    await units.unit((tx) => tx.people.updateUser({ ...user('U3', 'W1', 'sam@acme.io', 3), disabled_at: at(6) }))
    expect(await stores.people.isSessionLive('S3', at(7))).toBe(false)
    await units.unit((tx) => tx.people.deleteSession('S2'))
    expect((await stores.people.listSessions('U1')).map((row) => row.id)).toEqual(['S1'])
    await units.unit((tx) => tx.people.deleteSessionsOf('U1'))
    expect(await stores.people.listSessions('U1')).toEqual([])
  })

  test('one-time tokens: live until spent or expired, spent once, unused ones of a person deleted', async () => {
    const { stores, units } = database()
    const token = (hash: string, userId: string | null, expires: number) => ({ hash, purpose: 'invite' as const, workspace_id: 'W1', user_id: userId, created_at: at(1), expires_at: at(expires) })
    await units.unit(async (tx) => {
      await tx.people.insertToken(token('T1', 'U1', 10))
      await tx.people.insertToken(token('T2', 'U1', 10))
      await tx.people.insertToken(token('T3', null, 10))
    })
    expect(await stores.people.liveToken('T1', at(9))).toEqual({ ...token('T1', 'U1', 10), used_at: null })
    expect(await stores.people.liveToken('T1', at(10))).toBeUndefined()
    expect(await units.unit((tx) => tx.people.spendToken('T1', at(10)))).toBeUndefined()
    expect(await units.unit((tx) => tx.people.spendToken('T1', at(5)))).toMatchObject({ hash: 'T1', used_at: at(5) })
    expect(await units.unit((tx) => tx.people.spendToken('T1', at(5)))).toBeUndefined()
    await units.unit((tx) => tx.people.deleteUnusedTokensOf('U1'))
    expect(await stores.people.liveToken('T2', at(5))).toBeUndefined()
    expect(await database().query(`SELECT hash FROM one_time_tokens ORDER BY hash`)).toEqual([{ hash: 'T1' }, { hash: 'T3' }])
  })

  test('two nodes spending one token at once: one wins', async () => {
    const other = database().otherNode()
    if (!other) return
    const { units } = database()
    await units.unit((tx) => tx.people.insertToken({ hash: 'RACE', purpose: 'reset', workspace_id: 'W1', user_id: 'U1', created_at: at(1), expires_at: at(10) }))
    const spent = await Promise.all([units.unit((tx) => tx.people.spendToken('RACE', at(2))), other.units.unit((tx) => tx.people.spendToken('RACE', at(2)))])
    expect(spent.filter(Boolean)).toHaveLength(1)
  })

  test("keeps a person's chosen language (migration 0030), and null again to follow the browser", async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W7', 'seven', '${at(1)}')`)
    await units.unit((tx) => tx.people.insertUser(user('U7', 'W7', 'lee@acme.io', 1, { locale: 'es' })))
    expect((await stores.people.getUser('W7', 'U7'))?.locale).toBe('es')
    const row = (await stores.people.getUser('W7', 'U7')) as UserRow
    await units.unit((tx) => tx.people.updateUser({ ...row, locale: null, updated_at: at(2) }))
    expect((await stores.people.getUser('W7', 'U7'))?.locale).toBeNull()
  })
})
