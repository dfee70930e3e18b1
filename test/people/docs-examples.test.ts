import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples } from '../support/curl-examples.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'
import { type TestApp, testApp } from '../support/test-app.ts'
import { cookieOf, tokenOf } from './support/people-context.ts'

const page = readFileSync(new URL('../../docs/people.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

describe('docs/people.md: every curl example answers as documented, in order', () => {
  let app: TestApp
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  beforeAll(() => {
    app = testApp({ PARLEY_PUBLIC_URL: DOCS_ORIGIN })
    vars.PARLEY_KEY = app.key
  })
  afterAll(() => app.close())

  test('the page has the examples of invites, sign-in, sessions, the Origin check and roles', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8)
  })

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      const result = await runCurlExample(app, example, vars)
      if (result.body?.invite) {
        if (vars.INVITE_TOKEN) vars.SAM_ID = result.body.user.id
        else vars.INVITE_TOKEN = tokenOf(result.body.invite.url)
      }
      const setCookie = result.headers.get('set-cookie')
      if (setCookie && result.status === 200) vars.SESSION = cookieOf(setCookie).replace('parley_session=', '')
      if (example.command.includes('/auth/sign-out')) {
        expect((await app.call('GET', '/api/dev/v1/auth/me', { key: null, headers: { cookie: `parley_session=${vars.SESSION}` } })).status).toBe(401)
      }
    })
  }
})
