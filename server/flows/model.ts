import { type Static, t } from 'elysia'
import { ChatbotParams, Id, listOf, Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'

export const FlowType = t.Union([t.Literal('conversation'), t.Literal('meta')], {
  description: '`conversation`: a state machine (docs/flows.md); `meta`: a WhatsApp Flow JSON document (docs/meta-flows.md)',
})
export type FlowType = Static<typeof FlowType>

export const FlowStatus = t.Union([t.Literal('draft'), t.Literal('published')])
export type FlowStatus = Static<typeof FlowStatus>

const Name = nameText(200, { examples: ['Welcome'] })

/** The definition is checked by validate and publish, not on save: a draft may be unfinished. */
const Definition = t.Object(
  {},
  {
    additionalProperties: true,
    description:
      'the flow definition: for `conversation`, see /api/dev/v1/schemas/conversation-flow.json; for `meta`, WhatsApp Flow JSON',
  },
)

export const FlowParams = t.Object({ ...ChatbotParams.properties, flow_id: t.String({ description: 'flow ULID' }) })

export const Flow = t.Object({
  id: Id,
  chatbot_id: Id,
  name: t.String(),
  type: FlowType,
  status: FlowStatus,
  flow: Definition,
  created_at: Timestamp,
  updated_at: t.Union([Timestamp, t.Null()], { description: 'last edit; null on a new flow' }),
  published_at: t.Union([Timestamp, t.Null()], { description: 'when the live version was published; null for a draft' }),
  published_version: t.Union([t.Integer({ minimum: 1 }), t.Null()], { description: 'number of the live version; null for a draft' }),
  has_unpublished_changes: t.Boolean({
    description: 'true when the flow is published and `flow` differs from the live version; false for a draft',
  }),
})
export type Flow = Static<typeof Flow>

export const FlowListItem = t.Object({
  id: Id,
  chatbot_id: Id,
  name: t.String(),
  type: FlowType,
  status: FlowStatus,
  created_at: Timestamp,
})
export type FlowListItem = Static<typeof FlowListItem>

export const FlowList = listOf(FlowListItem)

export const CreateFlow = t.Object(
  { name: Name, type: FlowType, flow: t.Optional(Definition) },
  { additionalProperties: false },
)
export type CreateFlow = Static<typeof CreateFlow>

export const UpdateFlow = t.Object(
  {
    name: t.Optional(Name),
    flow: t.Optional({ ...Definition, description: 'replaces the whole definition' }),
    type: t.Optional(
      t.Never({
        description: 'cannot change: create a new flow of the other type instead',
        error: 'cannot change after creation; create a new flow of the other type instead',
      }),
    ),
  },
  { additionalProperties: false },
)
export type UpdateFlow = Omit<Static<typeof UpdateFlow>, 'type'>

export const ValidationIssue = t.Object({
  path: t.String({ description: 'JSON Pointer into `flow`', examples: ['/states/welcome/on/2/to'] }),
  code: t.String({ description: 'stable code, listed in docs/flows.md and docs/meta-flows.md', examples: ['unknown_state'] }),
  message: t.String(),
})

export const ValidationResult = t.Object({
  valid: t.Boolean({ description: 'true when there are no errors; warnings do not count' }),
  errors: t.Array(ValidationIssue, { description: 'publishing is refused while there are any' }),
  warnings: t.Array(ValidationIssue),
})
export type ValidationResult = Static<typeof ValidationResult>

export const PublishResult = t.Object({
  id: Id,
  status: t.Literal('published'),
  published_at: Timestamp,
})
export type PublishResult = Static<typeof PublishResult>
