import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type ChatbotReferences,
  CONVERSATION_ERROR_CODES,
  CONVERSATION_WARNING_CODES,
  validateConversationFlow,
} from '../../server/flows/validate/conversation.ts'

const docs = readFileSync(join(import.meta.dir, '../../docs/flows.md'), 'utf8')

/** Every ```json block of docs/flows.md is a conversation flow example (API samples use ```jsonc). */
const examples = [...docs.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((found) => found[1] as string)

/** The ids the examples use for "your" meta flow and mcp integration. */
const references: ChatbotReferences = {
  flows: new Map([['01JD3Q3M9Z5W6X7Y8Z9A0B1C2D', { type: 'meta', published: true }]]),
  mcpIntegrationIds: new Set(['01JD3Q4A7B8C9D0E1F2G3H4J5K']),
}

describe('docs/flows.md', () => {
  test('has worked examples', () => expect(examples.length).toBeGreaterThanOrEqual(4))

  examples.forEach((source, index) => {
    const firstState = /"start": "([^"]+)"/.exec(source)?.[1]
    test(`example ${index + 1} (starting in "${firstState}") is valid JSON with no error and no warning`, () => {
      expect(validateConversationFlow(JSON.parse(source), references)).toEqual({ errors: [], warnings: [] })
    })
  })

  test('lists every error and warning code in its tables', () => {
    const validation = docs.slice(docs.indexOf('## Validation'), docs.indexOf('## Meta flows'))
    const documented = new Set([...validation.matchAll(/^\| `([a-z_]+)` \|/gm)].map((found) => found[1]))
    for (const code of [...CONVERSATION_ERROR_CODES, ...CONVERSATION_WARNING_CODES]) expect(documented).toContain(code)
    expect(documented.size).toBe(CONVERSATION_ERROR_CODES.length + CONVERSATION_WARNING_CODES.length)
  })
})
