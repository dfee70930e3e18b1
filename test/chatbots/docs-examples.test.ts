import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples } from '../support/curl-examples.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'

const page = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

describe('docs/api.md: every curl example answers as documented, in order', () => {
  let app: TestApp
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
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
      const result = await runCurlExample(app, example, vars)
      if (result.status === 201) vars.CHATBOT_ID = result.body.id
    })
  }
})
