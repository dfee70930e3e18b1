import { createHash } from 'node:crypto'
import { mcpConfigOf, mcpSecretsOf } from '../integrations/mcp-integration.ts'
import type { IntegrationRow } from '../integrations/model.ts'

/**
 * A digest of the settings OAuth tokens and clients are obtained under: the server's url and
 * the whole auth (grant, client id and secret, scopes). Tokens stored under another digest are
 * not used, so a PATCH of the url or auth retires them at once, and a refresh that finishes
 * after such a PATCH cannot store tokens for the new settings.
 */
export function oauthBinding(row: Pick<IntegrationRow, 'config' | 'secrets'>): string {
  const config = mcpConfigOf(row)
  return createHash('sha256')
    .update(JSON.stringify([config.url, config.auth, mcpSecretsOf(row).client_secret ?? null]))
    .digest('base64url')
}
