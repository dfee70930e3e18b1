import { expect, test } from 'bun:test'
import { onBothDatabases } from '../support/both-databases.ts'

const at = '2026-01-01T00:00:00.000Z'
const pending = (expiresAt: number, binding = 'binding-1') => ({ integrationId: 'I', binding, codeVerifier: `v${expiresAt}`, expiresAt })

onBothDatabases('the mcp OAuth store', (database) => {
  test('keeps a grant under its binding; one under other settings reads as nothing; a change keeps the rest', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}')`)
    await exec(`INSERT INTO integrations (id, chatbot_id, type, name, created_at) VALUES ('I', 'B', 'mcp', 'crm', '${at}'), ('J', 'B', 'mcp', 'other', '${at}')`)
    const tokens = { access_token: 'a', token_type: 'Bearer', refresh_token: 'r', expires_at: 1_900_000_000_000 }
    await units.unit((tx) => tx.mcpOAuth.update('I', 'binding-1', { tokens, client: { client_id: 'c' } }, at))
    await units.unit((tx) => tx.mcpOAuth.update('I', 'binding-1', { wantedScope: 'more', needsAuthorization: true }, at))
    expect(await stores.mcpOAuth.grant('I', 'binding-1')).toEqual({ discovery: null, client: { client_id: 'c' }, tokens, needsAuthorization: true, wantedScope: 'more' })
    expect(await stores.mcpOAuth.grant('I', 'binding-2')).toEqual({ discovery: null, client: null, tokens: null, needsAuthorization: false, wantedScope: null })
    // Another binding's change replaces the grant whole.
    await units.unit((tx) => tx.mcpOAuth.update('I', 'binding-2', { wantedScope: 'x' }, at))
    expect((await stores.mcpOAuth.grant('I', 'binding-1')).tokens).toBeNull()
    expect(await stores.mcpOAuth.grant('I', 'binding-2')).toMatchObject({ tokens: null, wantedScope: 'x' })
    expect((await stores.mcpOAuth.grant('J', 'binding-1')).tokens).toBeNull()
  })

  test('a grant for an integration deleted meanwhile is not kept, and the unit commits what else it wrote', async () => {
    const { stores, units } = database()
    const answered = await units.unit(async (tx) => {
      const grant = await tx.mcpOAuth.update('gone', 'b', { wantedScope: 'y' }, at)
      await tx.instance.set('written beside the grant', 'yes')
      return grant
    })
    expect(answered.wantedScope).toBe('y')
    expect((await stores.mcpOAuth.grant('gone', 'b')).wantedScope).toBeNull()
    expect(await stores.instance.get('written beside the grant')).toBe('yes')
  })

  test('a started authorization works once and not once expired; at most `keep` per integration, the oldest dropped', async () => {
    const { query, units } = database()
    const stateTime = Date.UTC(2026, 0, 1)
    await units.unit((tx) => tx.mcpOAuth.savePending('h1', pending(stateTime + 2000), 5))
    await units.unit((tx) => tx.mcpOAuth.savePending('h2', pending(stateTime + 1000), 5))
    expect(await units.unit((tx) => tx.mcpOAuth.takePending('h1', stateTime + 1500))).toEqual(pending(stateTime + 2000))
    expect(await units.unit((tx) => tx.mcpOAuth.takePending('h1', stateTime + 1500))).toBeNull()
    expect(await units.unit((tx) => tx.mcpOAuth.takePending('h2', stateTime + 1500))).toBeNull()
    for (let i = 0; i < 7; i++) await units.unit((tx) => tx.mcpOAuth.savePending(`k${i}`, pending(stateTime + 10_000 + i, 'b'), 5))
    expect(await query<{ state_hash: string }>('SELECT state_hash FROM mcp_oauth_states ORDER BY expires_at')).toEqual(['k2', 'k3', 'k4', 'k5', 'k6'].map((state_hash) => ({ state_hash })))
  })

  test('grants and started authorizations go with their integration', async () => {
    const { exec, query } = database()
    await exec(`DELETE FROM integrations WHERE id = 'I'`)
    expect(await query<{ n: number }>('SELECT CAST((SELECT count(*) FROM mcp_oauth_grants) + (SELECT count(*) FROM mcp_oauth_states) AS integer) AS n')).toEqual([{ n: 0 }])
  })
})
