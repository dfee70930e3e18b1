import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples, parseCurl } from '../support/curl-examples.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'
import { docsOAuthServer, docsServer } from './support/docs-server.ts'
import { type McpApp, mcpApp } from './support/mcp-app.ts'
import type { RunningMcpServer } from './support/mcp-servers.ts'

const page = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8')
const examples = curlExamples(page)
/** The server URL the page shows; the tests run the examples against a real server on 127.0.0.1. */
const DOCUMENTED_SERVER = 'https://tools.example.com/mcp'
/** The OAuth-protected server of the OAuth section. */
const DOCUMENTED_OAUTH_SERVER = 'https://crm.example.com/mcp'

describe('docs/mcp.md: every curl example answers as documented', () => {
  let app: McpApp
  let server: RunningMcpServer
  let crm: Awaited<ReturnType<typeof docsOAuthServer>>
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  beforeAll(async () => {
    server = await docsServer()
    crm = await docsOAuthServer()
    app = mcpApp()
    vars.PARLEY_KEY = app.key
    vars.CHATBOT_ID = await app.chatbot()
  })
  afterAll(async () => {
    await app.close()
    await server.stop()
    await crm.stop()
  })

  test('the page has examples', () => {
    expect(examples.length).toBeGreaterThan(12)
  })

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      const command = example.command.replaceAll(DOCUMENTED_SERVER, server.url).replaceAll(DOCUMENTED_OAUTH_SERVER, crm.url)
      const result = await runCurlExample(app, { ...example, command }, vars)
      if (result.status === 201 && typeof result.body?.id === 'string') vars.INTEGRATION_ID = result.body.id
      // The page's next step is a person opening the URL: the test's browser follows the redirect back to Parley.
      if (typeof result.body?.authorization_url === 'string') {
        const back = new URL((await fetch(result.body.authorization_url, { redirect: 'manual' })).headers.get('location') as string)
        expect((await app.call('GET', back.pathname + back.search, { key: null })).status).toBe(200)
      }
    })
  }

  test('together they cover every mcp route', () => {
    const template = { PARLEY_URL: DOCS_ORIGIN, PARLEY_KEY: 'pk', CHATBOT_ID: '{chatbot_id}', INTEGRATION_ID: '{integration_id}' }
    const shown = new Set(
      examples.map((example) => {
        const request = parseCurl(example.command, template)
        const path = decodeURIComponent(new URL(request.url).pathname).replace(/\/tools\/[^/]+\/call$/, '/tools/{name}/call')
        return `${request.method} ${path}`
      }),
    )
    const routes = app.http.routes
      .filter((route) => route.path.includes('/integrations/mcp'))
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, '$1').replace(/:(\w+)/g, '{$1}')}`)
    expect(routes.length).toBe(9)
    expect(routes.filter((route) => !shown.has(route))).toEqual([])
  })
})
