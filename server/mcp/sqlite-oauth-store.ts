import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import { grantColumns, grantOf, type OAuthStore, type StoredGrant } from './oauth-store.ts'

export function sqliteOAuthStore(db: Database): OAuthStore {
  const selectGrant = db.query<StoredGrant, [string]>(
    'SELECT binding, discovery, client, tokens, needs_authorization, wanted_scope FROM mcp_oauth_grants WHERE integration_id = ?',
  )
  const upsertGrant = db.query(
    `INSERT INTO mcp_oauth_grants (integration_id, binding, discovery, client, tokens, needs_authorization, wanted_scope, updated_at)
     VALUES ($id, $binding, $discovery, $client, $tokens, $needs, $wanted, $now)
     ON CONFLICT (integration_id) DO UPDATE SET binding = excluded.binding, discovery = excluded.discovery, client = excluded.client,
       tokens = excluded.tokens, needs_authorization = excluded.needs_authorization, wanted_scope = excluded.wanted_scope, updated_at = excluded.updated_at`,
  )
  const insertState = db.query(
    'INSERT INTO mcp_oauth_states (state_hash, integration_id, binding, code_verifier, expires_at) VALUES ($hash, $id, $binding, $verifier, $expires)',
  )
  const takeState = db.query<{ integration_id: string; binding: string; code_verifier: string; expires_at: number }, [string]>(
    'DELETE FROM mcp_oauth_states WHERE state_hash = ? RETURNING integration_id, binding, code_verifier, expires_at',
  )
  const purgeStates = db.query('DELETE FROM mcp_oauth_states WHERE expires_at <= ?')
  const countStates = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM mcp_oauth_states WHERE integration_id = ?')
  const oldestStates = db.query('DELETE FROM mcp_oauth_states WHERE state_hash IN (SELECT state_hash FROM mcp_oauth_states WHERE integration_id = ? ORDER BY expires_at LIMIT ?)')

  return {
    grant: (integrationId, binding) => settled(() => grantOf(selectGrant.get(integrationId), binding)),
    update: (integrationId, binding, change, now) =>
      settled(() => {
        const next = { ...grantOf(selectGrant.get(integrationId), binding), ...change }
        try {
          upsertGrant.run({ id: integrationId, binding, ...grantColumns(next), now })
        } catch (error) {
          // The integration was deleted meanwhile: nothing to keep. A failed statement leaves SQLite's transaction (the open batch) as it was.
          if (!String((error as Error).message).includes('FOREIGN KEY')) throw error
        }
        return next
      }),
    savePending: (stateHash, pending, keep) =>
      settled(() => {
        const waiting = countStates.get(pending.integrationId)?.n ?? 0
        if (waiting >= keep) oldestStates.run(pending.integrationId, waiting - keep + 1)
        insertState.run({ hash: stateHash, id: pending.integrationId, binding: pending.binding, verifier: pending.codeVerifier, expires: pending.expiresAt })
      }),
    takePending: (stateHash, nowMs) =>
      settled(() => {
        purgeStates.run(nowMs)
        const row = takeState.get(stateHash)
        if (!row) return null
        return { integrationId: row.integration_id, binding: row.binding, codeVerifier: row.code_verifier, expiresAt: row.expires_at }
      }),
  }
}
