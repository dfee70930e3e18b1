import { type Static, t } from 'elysia'
import { ChatappIntegration } from './chatapp-model.ts'
import { McpIntegration } from './mcp-model.ts'
import { RestApiIntegration } from './rest-api-model.ts'
import { WebIntegration } from './web-model.ts'

export { McpIntegration }

export const Integration = t.Union([WebIntegration, RestApiIntegration, ChatappIntegration, McpIntegration], {
  description: 'the whole record of any type, secrets masked; `type` tells which',
})
export type Integration = Static<typeof Integration>
