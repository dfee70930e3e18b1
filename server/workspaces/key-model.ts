import { type Static, t } from 'elysia'
import { Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'

const Prefix = t.String({ description: 'the first 11 characters of the key (pk_ and 8 more): how a key is named, never enough to use it', examples: ['pk_7mQ2xVb9'] })

export const ApiKey = t.Object({
  prefix: Prefix,
  name: t.String(),
  created_at: Timestamp,
  revoked_at: t.Union([Timestamp, t.Null()], { description: 'null while the key works' }),
  last_used_at: t.Union([Timestamp, t.Null()], { description: 'the last request it opened, to the minute; null if none yet' }),
})
export type ApiKey = Static<typeof ApiKey>

export const ApiKeyList = t.Object({ items: t.Array(ApiKey), total: t.Integer({ minimum: 0 }) })

export const CreateApiKey = t.Object({ name: nameText(100, { examples: ['Back office'] }) }, { additionalProperties: false })

export const CreatedApiKey = t.Object({
  ...ApiKey.properties,
  key: t.String({ description: 'the key itself (pk_...), shown in this answer only: Parley keeps only its SHA-256' }),
})

export const ApiKeyParams = t.Object({ prefix: t.String({ description: 'the key prefix (pk_ and 8 characters)' }) })
