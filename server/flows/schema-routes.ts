import { Elysia } from 'elysia'
import { ConversationFlow } from '../flow-language/conversation-flow-schema.ts'

export const CONVERSATION_FLOW_SCHEMA_PATH = '/api/dev/v1/schemas/conversation-flow.json'

/** The conversation flow schema as JSON Schema, for editors and for validating flows offline. */
export function flowSchemaRoutes(publicUrl: string) {
  const document = JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${publicUrl}${CONVERSATION_FLOW_SCHEMA_PATH}`,
    ...JSON.parse(JSON.stringify(ConversationFlow)),
  })
  return new Elysia().get(
    CONVERSATION_FLOW_SCHEMA_PATH,
    () => new Response(document, { headers: { 'content-type': 'application/schema+json' } }),
    {
      detail: {
        tags: ['Reference'],
        security: [],
        summary: 'The conversation flow format as JSON Schema',
        description: 'Cross-field rules (references, ways out, loops, templates) are the validator\'s; see docs/flows.md.',
      },
    },
  )
}
