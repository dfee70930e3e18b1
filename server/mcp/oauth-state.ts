import { type McpOAuthState, mcpConfigOf } from '../integrations/mcp-integration.ts'
import type { IntegrationRow } from '../integrations/model.ts'
import { oauthBinding } from './oauth-binding.ts'
import type { OAuthStore } from './oauth-store.ts'

/** What an oauth integration's record says about its tokens (never the tokens themselves). */
export function oauthStateOf(store: Pick<OAuthStore, 'grant'>) {
  return async (row: IntegrationRow): Promise<McpOAuthState> => {
    const grant = await store.grant(row.id, oauthBinding(row))
    const expires = grant.tokens?.expires_at
    const token_expires_at = typeof expires === 'number' ? new Date(expires).toISOString() : null
    if (grant.tokens && !grant.needsAuthorization) return { status: 'authorized', token_expires_at }
    const machine = mcpConfigOf(row).auth.grant === 'client_credentials'
    return { status: machine && !grant.needsAuthorization ? 'not_connected' : 'needs_authorization', token_expires_at: null }
  }
}
