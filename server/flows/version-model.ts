import { type Static, t } from 'elysia'
import { listOf, Timestamp } from '../http/common-model.ts'
import { FlowParams } from './model.ts'

const VersionNumber = t.Integer({ minimum: 1, description: 'numbered from 1 in publishing order' })

export const FlowVersionSummary = t.Object({ version: VersionNumber, published_at: Timestamp })

export const FlowVersionList = listOf(FlowVersionSummary)
export type FlowVersionList = Static<typeof FlowVersionList>

export const FlowVersion = t.Object({
  version: VersionNumber,
  published_at: Timestamp,
  flow: t.Object({}, { additionalProperties: true, description: 'the definition as published; it never changes' }),
})
export type FlowVersion = Static<typeof FlowVersion>

export const FlowVersionParams = t.Object({
  ...FlowParams.properties,
  version: t.Transform(
    t.String({
      pattern: '^[1-9][0-9]{0,8}$',
      description: 'a version number',
      error: { path: '/version', message: 'must be a version number (1, 2, ...)' } as unknown as string,
    }),
  )
    .Decode((spelled) => Number(spelled))
    .Encode((value) => String(value)),
})
