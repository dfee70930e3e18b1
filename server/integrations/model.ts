import { type Static, t } from 'elysia'
import { Id, listOf, type Page, PageQuery, Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'

/** Schemas and row types shared by every integration type. */

export const INTEGRATION_TYPES = ['chatapp', 'rest-api', 'web', 'mcp'] as const
export type IntegrationType = (typeof INTEGRATION_TYPES)[number]
/** The types addressed by a typed path, one per chatbot; mcp integrations are many. */
export type TypedIntegrationType = Exclude<IntegrationType, 'mcp'>

export type JsonObject = Record<string, unknown>

/** What the store keeps of one integration (JSON columns parsed). */
export interface IntegrationRow {
  id: string
  chatbot_id: string
  workspace_id: string
  type: IntegrationType
  name: string
  is_active: boolean
  config: JsonObject
  secrets: JsonObject
  public_key: string | null
  created_at: string
  updated_at: string | null
}

/** The part of a row that a create or a PATCH decides. */
export type IntegrationSettings = Pick<IntegrationRow, 'name' | 'is_active' | 'config' | 'secrets' | 'public_key'>

export const IntegrationParams = t.Object({
  chatbot_id: t.String({ description: 'chatbot ULID' }),
  integration_id: t.String({ description: 'integration ULID' }),
})

export const IntegrationTypeSchema = t.Union(
  [t.Literal('chatapp'), t.Literal('rest-api'), t.Literal('web'), t.Literal('mcp')],
  { description: 'chatapp, rest-api and web: one per chatbot; mcp: many' },
) satisfies { anyOf: { const: IntegrationType }[] }

export const IntegrationListItem = t.Object({
  id: Id,
  chatbot_id: Id,
  type: IntegrationTypeSchema,
  is_active: t.Boolean(),
  created_at: Timestamp,
})
export type IntegrationListItem = Static<typeof IntegrationListItem>
export const IntegrationList = listOf(IntegrationListItem)

/** A page of the list, narrowed to one type when asked: a screen can ask whether a channel exists without a 404. */
export const IntegrationListQuery = t.Composite([PageQuery, t.Object({ type: t.Optional(IntegrationTypeSchema) })])
export type IntegrationListFilter = Page & { type?: IntegrationType }

export const IntegrationName = nameText(200, { examples: ['Website'] })

export const MaskedSecret = t.String({
  description: 'write-only secret: "••••" and its last 4 characters ("••••" alone when shorter than 12)',
  examples: ['••••9f3a'],
})

/** The fields every integration record starts with, in this order. */
export const recordHead = {
  id: Id,
  chatbot_id: Id,
  name: t.String(),
  is_active: t.Boolean({ description: 'false: the channel is closed; inbound and outbound traffic is refused' }),
}

export const recordTail = {
  created_at: Timestamp,
  updated_at: t.Union([Timestamp, t.Null()], { description: 'null until the first change' }),
}

export const EXAMPLE_IDS = {
  id: '01JD3Q6V1P8S2K4M6N8Q0R2T4V',
  chatbot_id: '01JD3Q3M9Z5W6X7Y8Z9A0B1C2D',
  created_at: '2026-01-15T09:30:00.000Z',
}
