import { type Static, t } from 'elysia'
import { Id, Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'

/**
 * The colours a label may have: names of a palette the desk draws with enough contrast in
 * both themes, never free CSS (nothing a caller sends reaches a style attribute).
 */
export const LABEL_COLORS = ['grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'] as const
export type LabelColor = (typeof LABEL_COLORS)[number]

/** A label's longest name. */
export const LABEL_NAME_MAX = 40

/** A label of the workspace's set: names are unique in any case. */
export const Label = t.Object({
  id: Id,
  name: t.String(),
  color: t.UnionEnum(LABEL_COLORS),
  created_at: Timestamp,
  updated_at: t.Union([Timestamp, t.Null()]),
})
export type Label = Static<typeof Label>
export const LabelList = t.Object({ items: t.Array(Label) })

const LabelColorField = t.UnionEnum(LABEL_COLORS, { description: `one of ${LABEL_COLORS.join(', ')}` })
const LabelName = nameText(LABEL_NAME_MAX, { examples: ['VIP'], description: 'unique in the workspace whatever its case' })

export const LabelBody = t.Object({ name: LabelName, color: t.Optional(LabelColorField) }, { additionalProperties: false })
export type LabelBody = Static<typeof LabelBody>
export const LabelPatch = t.Object({ name: t.Optional(LabelName), color: t.Optional(LabelColorField) }, { additionalProperties: false })
export type LabelPatch = Static<typeof LabelPatch>
export const LabelParams = t.Object({ label_id: t.String() })
export const ConversationLabelParams = t.Object({ conversation_id: t.String(), label_id: t.String() })
export const ConversationParams = t.Object({ conversation_id: t.String() })
export const ContactLabelParams = t.Object({ contact_id: t.String(), label_id: t.String() })
export const ContactParams = t.Object({ contact_id: t.String() })

/** What a conversation or contact carries: its labels, by name. */
export const CarriedLabels = t.Object({ items: t.Array(Label) })
