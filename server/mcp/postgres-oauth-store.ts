import type { SQL } from 'bun'
import { grantColumns, grantOf, type OAuthStore, type StoredGrant } from './oauth-store.ts'

export function postgresOAuthStore(sql: SQL): OAuthStore {
  const selectGrant = async (integrationId: string, lock: boolean) => {
    const rows = lock
      ? await sql<StoredGrant[]>`SELECT binding, discovery, client, tokens, needs_authorization, wanted_scope FROM mcp_oauth_grants
          WHERE integration_id = ${integrationId} FOR UPDATE`
      : await sql<StoredGrant[]>`SELECT binding, discovery, client, tokens, needs_authorization, wanted_scope FROM mcp_oauth_grants
          WHERE integration_id = ${integrationId}`
    return rows[0]
  }

  return {
    grant: async (integrationId, binding) => grantOf(await selectGrant(integrationId, false), binding),
    async update(integrationId, binding, change, now) {
      // The row stays locked to the unit's end: two nodes changing one grant do not lose a change.
      const next = { ...grantOf(await selectGrant(integrationId, true), binding), ...change }
      const columns = grantColumns(next)
      // Nothing for an integration deleted meanwhile: an error would abort the unit's transaction on PostgreSQL.
      await sql`
        INSERT INTO mcp_oauth_grants (integration_id, binding, discovery, client, tokens, needs_authorization, wanted_scope, updated_at)
        SELECT ${integrationId}, ${binding}, ${columns.discovery}, ${columns.client}, ${columns.tokens}, ${columns.needs}, ${columns.wanted}, ${now}
        WHERE EXISTS (SELECT 1 FROM integrations WHERE id = ${integrationId})
        ON CONFLICT (integration_id) DO UPDATE SET binding = excluded.binding, discovery = excluded.discovery, client = excluded.client,
          tokens = excluded.tokens, needs_authorization = excluded.needs_authorization, wanted_scope = excluded.wanted_scope, updated_at = excluded.updated_at`
      return next
    },
    async savePending(stateHash, pending, keep) {
      const [waiting] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM mcp_oauth_states WHERE integration_id = ${pending.integrationId}`
      const n = waiting?.n ?? 0
      if (n >= keep) {
        await sql`DELETE FROM mcp_oauth_states WHERE state_hash IN (SELECT state_hash FROM mcp_oauth_states
          WHERE integration_id = ${pending.integrationId} ORDER BY expires_at LIMIT ${n - keep + 1})`
      }
      await sql`INSERT INTO mcp_oauth_states (state_hash, integration_id, binding, code_verifier, expires_at)
        VALUES (${stateHash}, ${pending.integrationId}, ${pending.binding}, ${pending.codeVerifier}, ${pending.expiresAt})`
    },
    async takePending(stateHash, nowMs) {
      await sql`DELETE FROM mcp_oauth_states WHERE expires_at <= ${nowMs}`
      const [row] = await sql<{ integration_id: string; binding: string; code_verifier: string; expires_at: string | number }[]>`
        DELETE FROM mcp_oauth_states WHERE state_hash = ${stateHash} RETURNING integration_id, binding, code_verifier, expires_at`
      if (!row) return null
      // bigint: read back as a string.
      return { integrationId: row.integration_id, binding: row.binding, codeVerifier: row.code_verifier, expiresAt: Number(row.expires_at) }
    },
  }
}
