import type { Database } from 'bun:sqlite'
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'

/** Tokens as the authorization server gave them, with when the access token expires (epoch ms). */
export type StoredTokens = OAuthTokens & { issuer?: string; expires_at?: number }

/** What Parley holds for one integration's OAuth, under the settings it was obtained with. */
export interface OAuthGrant {
  discovery: OAuthDiscoveryState | null
  /** The client registered dynamically (or a pre-registered one, once bound to its server). */
  client: (OAuthClientInformationMixed & { issuer?: string }) | null
  tokens: StoredTokens | null
  /** A refresh or an authorization failed: a person must authorize again. */
  needsAuthorization: boolean
  /** The scope the server asked for beyond the granted one (403 insufficient_scope): the next authorization asks for it. */
  wantedScope: string | null
}

export interface PendingAuthorization {
  integrationId: string
  binding: string
  codeVerifier: string
  expiresAt: number
}

const EMPTY: OAuthGrant = { discovery: null, client: null, tokens: null, needsAuthorization: false, wantedScope: null }

export type OAuthStore = ReturnType<typeof oauthStore>

/** The mcp_oauth_grants and mcp_oauth_states tables (migration 14); only SQL and JSON here. */
export function oauthStore(db: Database) {
  const selectGrant = db.query<{ binding: string; discovery: string | null; client: string | null; tokens: string | null; needs_authorization: number; wanted_scope: string | null }, [string]>(
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

  const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T))

  function grant(integrationId: string, binding: string): OAuthGrant {
    const row = selectGrant.get(integrationId)
    // Obtained under other settings (another url, client or scope): as good as nothing.
    if (!row || row.binding !== binding) return { ...EMPTY }
    return {
      discovery: parse(row.discovery),
      client: parse(row.client),
      tokens: parse(row.tokens),
      needsAuthorization: row.needs_authorization === 1,
      wantedScope: row.wanted_scope,
    }
  }

  return {
    grant,

    /** Changes part of the grant; a grant stored under another binding is replaced. */
    update(integrationId: string, binding: string, change: Partial<OAuthGrant>, now: string): OAuthGrant {
      const next = { ...grant(integrationId, binding), ...change }
      try {
        upsertGrant.run({
          id: integrationId,
          binding,
          discovery: next.discovery ? JSON.stringify(next.discovery) : null,
          client: next.client ? JSON.stringify(next.client) : null,
          tokens: next.tokens ? JSON.stringify(next.tokens) : null,
          needs: next.needsAuthorization ? 1 : 0,
          wanted: next.wantedScope,
          now,
        })
      } catch (error) {
        // The integration was deleted meanwhile: nothing to keep.
        if (!String((error as Error).message).includes('FOREIGN KEY')) throw error
      }
      return next
    },

    /** Keeps a started authorization; at most `keep` per integration, the oldest dropped first. */
    savePending(stateHash: string, pending: PendingAuthorization, keep: number): void {
      const waiting = countStates.get(pending.integrationId)?.n ?? 0
      if (waiting >= keep) oldestStates.run(pending.integrationId, waiting - keep + 1)
      insertState.run({ hash: stateHash, id: pending.integrationId, binding: pending.binding, verifier: pending.codeVerifier, expires: pending.expiresAt })
    },

    /** The started authorization with this state, removed as it is read: a state works once. */
    takePending(stateHash: string, nowMs: number): PendingAuthorization | null {
      purgeStates.run(nowMs)
      const row = takeState.get(stateHash)
      if (!row) return null
      return { integrationId: row.integration_id, binding: row.binding, codeVerifier: row.code_verifier, expiresAt: row.expires_at }
    },
  }
}
