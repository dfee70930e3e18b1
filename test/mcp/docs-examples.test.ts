import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples, parseCurl } from '../support/curl-examples.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'
import { docsServer } from './support/docs-server.ts'
import { type McpApp, mcpApp } from './support/mcp-app.ts'
import type { RunningMcpServer } from './support/mcp-servers.ts'

const page = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8')
const examples = curlExamples(page)
/** The server URL the page shows; the tests run the examples against a real server on 127.0.0.1. */
const DOCUMENTED_SERVER = 'https://tools.example.com/mcp'

describe('docs/mcp.md: every curl example answers as documented', () => {
  let app: McpApp
  let server: RunningMcpServer
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  beforeAll(async () => {
    server = await docsServer()
    app = mcpApp()
    vars.PARLEY_KEY = app.key
    vars.CHATBOT_ID = await app.chatbot()
  })
  afterAll(async () => {
    await app.close()
    await server.stop()
  })

  test('the page has examples', () => {
    expect(examples.length).toBeGreaterThan(12)
  })

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      const result = await runCurlExample(app, { ...example, command: example.command.replaceAll(DOCUMENTED_SERVER, server.url) }, vars)
      if (result.status === 201 && typeof result.body?.id === 'string') vars.INTEGRATION_ID = result.body.id
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
    expect(routes.length).toBe(8)
    expect(routes.filter((route) => !shown.has(route))).toEqual([])
  })
})
