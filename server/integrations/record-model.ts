import { type Static, t } from 'elysia'
import { ChatappIntegration } from './chatapp-model.ts'
import { EXAMPLE_IDS, recordHead, recordTail } from './model.ts'
import { RestApiIntegration } from './rest-api-model.ts'
import { WebIntegration } from './web-model.ts'

/** An mcp integration as the generic routes show it until its own endpoints exist. */
export const McpIntegration = t.Object(
  {
    ...recordHead,
    type: t.Literal('mcp'),
    config: t.Record(t.String(), t.Unknown(), { description: 'its settings, with every secret masked' }),
    ...recordTail,
  },
  {
    examples: [
      {
        id: EXAMPLE_IDS.id,
        chatbot_id: EXAMPLE_IDS.chatbot_id,
        type: 'mcp',
        name: 'Orders',
        is_active: true,
        config: { url: 'https://tools.example.com/mcp', token: '••••k2Lq' },
        created_at: EXAMPLE_IDS.created_at,
        updated_at: null,
      },
    ],
  },
)
export type McpIntegration = Static<typeof McpIntegration>

export const Integration = t.Union([WebIntegration, RestApiIntegration, ChatappIntegration, McpIntegration], {
  description: 'the whole record of any type, secrets masked; `type` tells which',
})
export type Integration = Static<typeof Integration>
