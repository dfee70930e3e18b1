import { maskSecret } from './mask-secret.ts'
import type { IntegrationRow } from './model.ts'
import type { McpIntegration } from './record-model.ts'

/**
 * Shows a row of a type without its own renderer (mcp, until its endpoints exist): its
 * settings as stored and every secret masked, whatever its shape.
 */
export function renderGeneric(row: IntegrationRow): McpIntegration {
  return {
    id: row.id,
    chatbot_id: row.chatbot_id,
    type: 'mcp',
    name: row.name,
    is_active: row.is_active,
    config: { ...row.config, ...(maskAll(row.secrets) as Record<string, unknown>) },
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function maskAll(value: unknown): unknown {
  if (value === null) return null
  if (typeof value === 'string') return maskSecret(value)
  if (Array.isArray(value)) return value.map(maskAll)
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskAll(inner)]))
  return maskSecret('')
}
