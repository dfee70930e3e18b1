import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { streamableServer } from './mcp-servers.ts'

/** The token docs/mcp.md creates its integration with. */
export const DOCS_TOKEN = 'sk-live-4f9a8b7c6d5e'

const tools: Tool[] = [
  {
    name: 'find_order',
    title: 'Find an order',
    description: 'Looks an order up by its number',
    inputSchema: { type: 'object', properties: { number: { type: 'string', pattern: '^A-\\d+$' } }, required: ['number'], additionalProperties: false },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'order_status',
    description: 'The shipping status of an order',
    inputSchema: { type: 'object', properties: { number: { type: 'string' } }, required: ['number'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'cancel_order',
    description: 'Cancels an order that has not shipped',
    inputSchema: { type: 'object', properties: { number: { type: 'string' } }, required: ['number'] },
    annotations: { destructiveHint: true },
  },
]

/** The orders server the examples of docs/mcp.md talk to, behind a bearer token. */
export function docsServer() {
  return streamableServer({
    name: 'orders',
    tools,
    requireHeaders: { authorization: `Bearer ${DOCS_TOKEN}` },
    answer: (name, args) =>
      name === 'find_order'
        ? { content: [{ type: 'text', text: `Order ${args.number}: 2 items, shipped on 2026-01-14` }], structuredContent: { number: args.number, status: 'shipped', items: 2 } }
        : { content: [{ type: 'text', text: `${name} ${args.number}: done` }] },
  })
}
