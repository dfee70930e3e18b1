import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples, shapeDifferences } from '../support/curl-examples.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { activePerson } from '../people/support/people-context.ts'
import { openConversation } from './support/desk-context.ts'

const page = readFileSync(new URL('../../docs/desk.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

describe('docs/desk.md: every curl example answers as documented, in order', () => {
  let app: TestApp
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  beforeAll(async () => {
    app = testApp({ PARLEY_PUBLIC_URL: DOCS_ORIGIN })
    vars.PARLEY_KEY = app.key
    const ada = await activePerson(app, 'ada@acme.io', 'admin')
    vars.SESSION = ada.cookie.replace('parley_session=', '')
    const chat = await setUpWebChat(app)
    const opened = openConversation(app, chat, { handoff: true, details: { name: 'Grace Hopper', email: 'grace@navy.mil' }, says: 'my invoice is wrong' })
    vars.CONVERSATION_ID = opened.id
    vars.SEEN_ID = app.services.conversations.history(opened.id).messages.at(-1)?.id as string
    // The visitor writes again: a reply against SEEN_ID is stale.
    app.services.conversations.visitorSays(opened.conversation, { clientId: 'again', content: { kind: 'text', text: 'hello?' } }, opened.ctx)
  })
  afterAll(() => app.close())

  test('the page shows the list, search, notes, a stale reply, assignment, the context and saved replies', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7)
  })

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      // A stale reply names the newer messages by id and time, which differ from run to run.
      await runCurlExample(app, example, vars, (documented, actual) => shapeDifferences(documented, actual).filter((line) => !/^\/errors\/0\/(path|message):/.test(line)))
    })
  }
})
