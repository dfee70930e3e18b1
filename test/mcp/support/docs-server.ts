import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { streamableServer } from './mcp-servers.ts'
import { oauthServer } from './oauth-server.ts'

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

/** The machine client docs/mcp.md sets up for the client_credentials grant. */
export const DOCS_MACHINE_CLIENT = { client_id: 'parley-crm', client_secret: 'cs-live-9c8b7a6f5e4d', redirect_uris: [], grant_types: ['client_credentials'] }

/** The CRM server of the OAuth examples: an SDK server behind a real authorization server. */
export async function docsOAuthServer() {
  const authorization = oauthServer({ clients: [DOCS_MACHINE_CLIENT] })
  const crmTools: Tool[] = [
    { name: 'find_contact', description: 'Finds a contact by e-mail', inputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }, annotations: { readOnlyHint: true } },
  ]
  const server = await streamableServer({ name: 'crm', tools: crmTools, oauth: { authorizationServer: authorization.origin, acceptsToken: (token) => authorization.acceptsToken(token) } })
  return {
    url: server.url,
    async stop() {
      await server.stop()
      authorization.stop()
    },
  }
}
