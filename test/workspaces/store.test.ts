import { expect, test } from 'bun:test'
import type { ApiKeyRow } from '../../server/workspaces/store.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = (day: number) => `2026-04-${String(day).padStart(2, '0')}T10:00:00.000Z`
const key = (id: string, workspace: string, day: number): Omit<ApiKeyRow, 'revoked_at' | 'last_used_at'> => ({
  id,
  workspace_id: workspace,
  name: `key ${id}`,
  prefix: `pk_${id.padEnd(8, '0')}`,
  hash: id.repeat(64).slice(0, 64),
  created_at: at(day),
})

onBothDatabases('the workspace store', (database) => {
  test('has no workspace before one is made; then names the first made, the smaller id in byte order on a tie', async () => {
    const { stores, units } = database()
    expect(await stores.workspaces.countWorkspaces()).toBe(0)
    expect(await stores.workspaces.firstWorkspace()).toBeUndefined()
    await units.unit(async (tx) => {
      await tx.workspaces.insertWorkspace({ id: 'Wb', name: 'later', created_at: at(2) })
      await tx.workspaces.insertWorkspace({ id: 'Wa', name: 'tie, larger id', created_at: at(1) })
      await tx.workspaces.insertWorkspace({ id: 'WB', name: 'first', created_at: at(1) })
    })
    expect(await stores.workspaces.countWorkspaces()).toBe(3)
    expect(await stores.workspaces.firstWorkspace()).toEqual({ id: 'WB', name: 'first', created_at: at(1) })
    expect(await stores.workspaces.getWorkspace('Wb')).toEqual({ id: 'Wb', name: 'later', created_at: at(2) })
    expect(await stores.workspaces.getWorkspace('nope')).toBeUndefined()
  })

  test('keeps keys by prefix; lists them all oldest first, and a workspace’s newest first', async () => {
    const { stores, units } = database()
    await units.unit(async (tx) => {
      await tx.workspaces.insertKey(key('k2', 'Wa', 2))
      await tx.workspaces.insertKey(key('k1', 'WB', 1))
      await tx.workspaces.insertKey(key('k3', 'Wa', 3))
    })
    expect(await stores.workspaces.findKeyByPrefix('pk_k1000000')).toEqual({ ...key('k1', 'WB', 1), revoked_at: null, last_used_at: null })
    expect(await stores.workspaces.findKeyByPrefix('pk_missing')).toBeUndefined()
    expect((await stores.workspaces.listKeys()).map((row) => row.id)).toEqual(['k1', 'k2', 'k3'])
    expect((await stores.workspaces.listKeysOf('Wa')).map((row) => row.id)).toEqual(['k3', 'k2'])
    expect(await stores.workspaces.listKeysOf('Wb')).toEqual([])
  })

  test('revoking by prefix takes an active key only; a workspace’s revoke keeps the first time and never reaches another workspace', async () => {
    const { stores, units } = database()
    const revoked = await units.unit((tx) => tx.workspaces.revokeKey('pk_k1000000', at(5)))
    expect(revoked).toMatchObject({ id: 'k1', revoked_at: at(5) })
    expect(await units.unit((tx) => tx.workspaces.revokeKey('pk_k1000000', at(6)))).toBeUndefined()

    expect(await units.unit((tx) => tx.workspaces.revokeKeyOf('WB', 'pk_k2000000', at(7)))).toBeUndefined()
    expect(await units.unit((tx) => tx.workspaces.revokeKeyOf('Wa', 'pk_k2000000', at(7)))).toMatchObject({ id: 'k2', revoked_at: at(7) })
    expect(await units.unit((tx) => tx.workspaces.revokeKeyOf('Wa', 'pk_k2000000', at(8)))).toMatchObject({ id: 'k2', revoked_at: at(7) })
    expect((await stores.workspaces.findKeyByPrefix('pk_k3000000'))?.revoked_at).toBeNull()
  })

  test('notes when a key was last used', async () => {
    const { stores, units } = database()
    await units.unit((tx) => tx.workspaces.touchKey('k3', at(9)))
    expect((await stores.workspaces.findKeyByPrefix('pk_k3000000'))?.last_used_at).toBe(at(9))
  })

  test('a unit that fails stores none of its workspace', async () => {
    const { stores, units } = database()
    const failing = units.unit(async (tx) => {
      await tx.workspaces.insertWorkspace({ id: 'Wgone', name: 'gone', created_at: at(1) })
      await tx.workspaces.insertWorkspace({ id: 'Wgone', name: 'twice', created_at: at(1) })
    })
    await expect(failing).rejects.toThrow()
    expect(await stores.workspaces.getWorkspace('Wgone')).toBeUndefined()
  })
})
