import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { type TestApp, testApp } from '../support/test-app.ts'
import { curlExamples, parseCurl, shapeDifferences, shellWords } from '../support/curl-examples.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'

const page = readFileSync(new URL('../../docs/integrations.md', import.meta.url), 'utf8')
const examples = curlExamples(page)

describe('docs/integrations.md: every curl example answers as documented', () => {
  let app: TestApp
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  beforeAll(async () => {
    app = testApp()
    vars.PARLEY_KEY = app.key
    vars.CHATBOT_ID = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Docs' } })).body.id
  })
  afterAll(() => app.close())

  test('the page has examples', () => {
    expect(examples.length).toBeGreaterThan(15)
  })

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      const result = await runCurlExample(app, example, vars)
      if (result.status === 201 && typeof result.body?.id === 'string') vars.INTEGRATION_ID = result.body.id
    })
  }

  test('together they cover every integrations route and the chatapp verify handshake', () => {
    const template = { PARLEY_URL: DOCS_ORIGIN, PARLEY_KEY: 'pk', CHATBOT_ID: '{chatbot_id}', INTEGRATION_ID: '{integration_id}' }
    const shown = new Set(
      examples.map((example) => {
        const request = parseCurl(example.command, template)
        return `${request.method} ${decodeURIComponent(new URL(request.url).pathname)}`
      }),
    )
    const routes = app.http.routes
      // The mcp routes have their own page, docs/mcp.md, and its own test; redelivering a failed
      // delivery needs one, and is shown in docs/rest-api-channel.md and test/channels/rest-api/redeliver.test.ts.
      .filter((route) => (route.path.includes('/integrations') && !route.path.includes('/integrations/mcp') && !route.path.endsWith('/redeliver')) || route.path.startsWith('/hooks/'))
      .map((route) => `${route.method} ${route.path.replace(/(.)\/$/, '$1').replace(/:(\w+)/g, '{$1}')}`)
    expect(routes.length).toBe(19)
    expect(routes.filter((route) => !shown.has(route))).toEqual([])
  })
})

describe('the docs runner refuses what it does not understand', () => {
  const vars = { PARLEY_URL: DOCS_ORIGIN, KEY: 'pk_x' }

  test('splits words like a shell: quotes, escapes, variables and line continuations', () => {
    expect(shellWords(`curl -s "$PARLEY_URL/a b" \\\n  -H "X: \\"$KEY\\"" -d '{"a": "$KEY"}'`, vars)).toEqual([
      'curl', '-s', `${DOCS_ORIGIN}/a b`, '-H', 'X: "pk_x"', '-d', '{"a": "$KEY"}',
    ])
    expect(shellWords('echo ${KEY}x', vars)).toEqual(['echo', 'pk_xx'])
  })

  test.each([
    ['curl "$UNKNOWN/x"', 'the docs use $UNKNOWN'],
    ['curl "$PARLEY_URL/x" | jq .', 'shell syntax |'],
    ["curl 'unclosed", "an unclosed '"],
    ['curl "unclosed', 'an unclosed "'],
  ])('%s', (command, message) => {
    expect(() => shellWords(command, vars)).toThrow(message)
  })

  test('reads method, headers and body, with curl\'s default methods', () => {
    expect(parseCurl(`curl -s -X PATCH "$PARLEY_URL/x" -H "Content-Type: application/json" -d '{}'`, vars)).toEqual({
      method: 'PATCH', url: `${DOCS_ORIGIN}/x`, headers: { 'content-type': 'application/json' }, body: '{}',
    })
    expect(parseCurl(`curl "$PARLEY_URL/x" -d '{}'`, vars).method).toBe('POST')
    expect(parseCurl(`curl "$PARLEY_URL/x"`, vars).method).toBe('GET')
  })

  test.each([
    [`curl -i "$PARLEY_URL/x"`, 'curl option -i is not supported'],
    [`curl "$PARLEY_URL/x" "$PARLEY_URL/y"`, 'two URLs'],
    [`wget "$PARLEY_URL/x"`, 'not a curl command'],
    [`curl -H`, '-H needs a value'],
  ])('%s', (command, message) => {
    expect(() => parseCurl(command, vars)).toThrow(message)
  })

  test('an sh block without a status line, or a json block that does not parse, is an error', () => {
    expect(() => curlExamples('```sh\ncurl "$PARLEY_URL/x"\n```\n')).toThrow('no "# → STATUS" line')
    expect(() => curlExamples('```sh\ncurl x\n# → 200\n```\n\n```json\n{nope}\n```\n')).toThrow('does not parse')
  })

  test('shapes are compared by keys and types, and stable values exactly', () => {
    expect(shapeDifferences({ id: 'a', is_active: true, n: [1] }, { id: 'b', is_active: true, n: [2] })).toEqual([])
    expect(shapeDifferences({ id: 'a' }, { id: null })).toEqual(['/id: documented string, got null'])
    expect(shapeDifferences({ id: 'a' }, { id: 'a', extra: 1 })).toEqual(['/: documented keys id, got extra, id'])
    expect(shapeDifferences({ is_active: true }, { is_active: false })).toEqual(['/is_active: documented true, got false'])
    expect(shapeDifferences([1, 2], [1])).toEqual([': documented 2 items, got 1'])
  })
})
