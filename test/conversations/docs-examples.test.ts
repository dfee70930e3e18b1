import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples, parseCurl } from '../support/curl-examples.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'

const page = readFileSync(new URL('../../docs/conversations.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

describe('docs/conversations.md: every curl example answers as documented', () => {
  let app: TestApp
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  beforeAll(async () => {
    app = testApp()
    vars.PARLEY_KEY = app.key
    const chat = await setUpWebChat(app)
    const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: null, tokenHash: 'docs' })
    app.services.visitors.mergeDetails(contact.id, { plan: 'pro' })
    const ctx = { chatbotId: chat.chatbotId, channel: 'web' as const, integrationId: chat.integrationId }
    vars.CHATBOT_ID = chat.chatbotId
    vars.CONVERSATION_ID = app.services.conversations.open(ctx, contact.id, null).id
  })
  afterAll(() => app.close())

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      await runCurlExample(app, example, vars)
    })
  }

  test('together they cover every conversations route', () => {
    const template = { PARLEY_URL: DOCS_ORIGIN, PARLEY_KEY: 'pk', CHATBOT_ID: '{chatbot_id}', CONVERSATION_ID: '{conversation_id}' }
    const shown = new Set(
      examples.map((example) => {
        const request = parseCurl(example.command, template)
        return `${request.method || (request.body ? 'POST' : 'GET')} ${decodeURIComponent(new URL(request.url).pathname)}`
      }),
    )
    const routes = app.http.routes
      .filter((route) => route.path.includes('/conversations') && !route.path.includes('/desk/'))
      // The agent trace is docs/agents.md's, and tested with its examples.
      .filter((route) => !route.path.endsWith('/trace'))
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, '$1').replace(/:(\w+)/g, '{$1}')}`)
    expect(routes.length).toBe(7)
    expect(routes.filter((route) => !shown.has(route))).toEqual([])
  })
})
