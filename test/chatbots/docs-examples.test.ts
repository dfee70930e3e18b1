import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples, parseCurl, shapeDifferences } from '../support/curl-examples.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

const page = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

describe('docs/api.md: every curl example answers as documented, in order', () => {
  let app: TestApp
  const vars: Record<string, string> = { PARLEY_URL: 'http://localhost:3000' }
  beforeAll(() => {
    app = testApp()
    vars.PARLEY_KEY = app.key
  })
  afterAll(() => app.close())

  test('the page has the chatbot examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7)
  })

  for (const example of examples) {
    test(`line ${example.line}: answers ${example.status}`, async () => {
      const request = parseCurl(example.command, vars)
      const url = new URL(request.url)
      const result = await app.call(request.method || (request.body ? 'POST' : 'GET'), url.pathname + url.search, {
        key: null,
        headers: request.headers,
        rawBody: request.body,
      })
      expect({ status: result.status, body: result.body }).toMatchObject({ status: example.status })
      if (example.response !== undefined) expect(shapeDifferences(example.response, result.body)).toEqual([])
      if (result.status === 201) vars.CHATBOT_ID = result.body.id
    })
  }
})
