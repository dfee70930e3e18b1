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

/**
 * The mcp_oauth_grants and mcp_oauth_states tables (migration 14; docs/architecture.md, "The
 * store seam"). Both go with their integration (foreign keys); a grant for an integration
 * deleted meanwhile is not kept, and that fails nothing (on PostgreSQL a refused statement
 * would abort the unit's transaction).
 */
export interface OAuthStore {
  /** The grant held under this binding; one obtained under other settings reads as nothing. */
  grant(integrationId: string, binding: string): Promise<OAuthGrant>
  /** Changes part of the grant (read and written in the unit); a grant stored under another binding is replaced. */
  update(integrationId: string, binding: string, change: Partial<OAuthGrant>, now: string): Promise<OAuthGrant>
  /** Keeps a started authorization; at most `keep` per integration, the oldest dropped first. */
  savePending(stateHash: string, pending: PendingAuthorization, keep: number): Promise<void>
  /** The started authorization with this state, removed as it is read: a state works once. Expired ones go first. */
  takePending(stateHash: string, nowMs: number): Promise<PendingAuthorization | null>
}

export const NO_GRANT: OAuthGrant = { discovery: null, client: null, tokens: null, needsAuthorization: false, wantedScope: null }

/** A grant row as both databases keep it: JSON as text, the flag as 0/1. */
export interface StoredGrant {
  binding: string
  discovery: string | null
  client: string | null
  tokens: string | null
  needs_authorization: number
  wanted_scope: string | null
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T))

export function grantOf(row: StoredGrant | null | undefined, binding: string): OAuthGrant {
  // Obtained under other settings (another url, client or scope): as good as nothing.
  if (!row || row.binding !== binding) return { ...NO_GRANT }
  return {
    discovery: parse(row.discovery),
    client: parse(row.client),
    tokens: parse(row.tokens),
    needsAuthorization: row.needs_authorization === 1,
    wantedScope: row.wanted_scope,
  }
}

/** The columns a grant is written with. */
export function grantColumns(grant: OAuthGrant) {
  return {
    discovery: grant.discovery ? JSON.stringify(grant.discovery) : null,
    client: grant.client ? JSON.stringify(grant.client) : null,
    tokens: grant.tokens ? JSON.stringify(grant.tokens) : null,
    needs: grant.needsAuthorization ? 1 : 0,
    wanted: grant.wantedScope,
  }
}
