import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Units } from '../../server/db/units.ts'
import type { McpIntegrations } from '../../server/integrations/mcp-integrations.ts'
import type { IntegrationRow } from '../../server/integrations/model.ts'
import type { OAuthStore } from '../../server/mcp/oauth-store.ts'
import { mcpOAuth } from '../../server/mcp/oauth-service.ts'
import { sqliteOAuthStore } from '../../server/mcp/sqlite-oauth-store.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { outboundUrlPolicy } from '../../server/support/outbound-url.ts'
import { migratedDatabase } from '../support/migrated-database.ts'

const dir = mkdtempSync(join(tmpdir(), 'parley-scope-note-'))
const db = migratedDatabase(join(dir, 'parley.db'))
afterAll(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

const at = '2026-01-01T00:00:00.000Z'
const row: IntegrationRow = {
  id: 'I',
  chatbot_id: 'B',
  workspace_id: 'W',
  type: 'mcp',
  name: 'crm',
  is_active: true,
  config: { url: 'https://crm.example.com/mcp', transport: 'auto', auth: { type: 'oauth', grant: 'authorization_code', scopes: [] }, tools: { allow: null, deny: [] }, timeout_ms: 30_000 },
  secrets: {},
  public_key: null,
  created_at: at,
  updated_at: null,
}

/** A server's 403 asks for a wider scope while a call is answered; the failure of that call reads it at once after. */
test('a wider scope a server asked for is seen by the next read of the grant, however long storing it takes', async () => {
  db.run(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at}')`)
  db.run(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}')`)
  db.run(`INSERT INTO integrations (id, chatbot_id, type, name, config, created_at) VALUES ('I', 'B', 'mcp', 'crm', '${JSON.stringify(row.config)}', '${at}')`)
  const store = sqliteOAuthStore(db)
  // A unit that commits a little later, as a busy group commit or a PostgreSQL round trip does.
  const slowUnits: Units<{ mcpOAuth: OAuthStore }> = {
    unit: async (work) => {
      await Bun.sleep(20)
      return work({ mcpOAuth: store })
    },
    conversationUnit: (_, work) => work({ mcpOAuth: store }),
  }
  const oauth = mcpOAuth({
    integrations: { rowById: async () => row } as unknown as McpIntegrations,
    stores: { mcpOAuth: store },
    units: slowUnits,
    policy: outboundUrlPolicy([]),
    now: () => at,
    publicUrl: 'http://parley.test',
    logger: createLogger('error', memorySink()),
  })
  const provider = oauth.providerFor(row)
  provider?.noteAnswer(new Response(null, { status: 403, headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="orders:write"' } }))
  expect(await oauth.wantedScopeOf(row)).toBe('orders:write')
})
