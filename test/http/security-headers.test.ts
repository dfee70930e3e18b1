import { afterAll, describe, expect, test } from 'bun:test'
import { CONVERSATION_FLOW_SCHEMA_PATH } from '../../server/flows/schema-routes.ts'
import { inlineHashes, pagePolicy } from '../../server/http/security-headers.ts'
import { cspDirective } from '../support/csp-directive.ts'
import { testApp } from '../support/test-app.ts'

const sha256 = (text: string) => `'sha256-${new Bun.CryptoHasher('sha256').update(text).digest('base64')}'`

describe('security headers on what the app serves', () => {
  const app = testApp()
  afterAll(() => app.close())

  test('the demo page: scripts only from this server, no framing, no sniffing, no referrer to other sites', async () => {
    const workspaceId = (await app.services.workspaces.authenticate(app.key)) as string
    await app.services.demo.create(workspaceId)
    const page = await app.call('GET', '/', { key: null })
    expect(page.text).toContain('<script src="/widget.js?key=')
    const policy = page.headers.get('content-security-policy')
    expect(cspDirective(policy, 'script-src')).toEqual(["'self'"])
    expect(cspDirective(policy, 'default-src')).toEqual(["'none'"])
    expect(cspDirective(policy, 'frame-ancestors')).toEqual(["'none'"])
    expect(cspDirective(policy, 'base-uri')).toEqual(["'none'"])
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('referrer-policy')).toBe('same-origin')
    expect(page.headers.get('strict-transport-security')).toBeNull()
  })

  test("the API reference: its inline script and stylesheet are allowed by the sha256 of exactly what is served, nothing else inline", async () => {
    const page = await app.call('GET', '/api/dev/v1/reference', { key: null })
    const policy = page.headers.get('content-security-policy')
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.text)?.[1] as string
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)?.[1] as string
    expect(script.length).toBeGreaterThan(1000)
    expect(cspDirective(policy, 'script-src')).toEqual([sha256(script)])
    expect(cspDirective(policy, 'style-src')).toEqual([sha256(style)])
    expect(cspDirective(policy, 'connect-src')).toEqual(["'self'"])
    expect(cspDirective(policy, 'frame-ancestors')).toEqual(["'none'"])
    expect(policy).not.toContain('unsafe')
  })

  test('the widget script stays embeddable: any origin may load it, no page policy or frame refusal on it, and it is never sniffed', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }] as Record<string, string>[]) {
      const response = await app.fetch(new Request('http://localhost/widget.js', { headers }))
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-security-policy')).toBeNull()
      expect(response.headers.get('x-frame-options')).toBeNull()
    }
  })

  test('JSON, problem+json and the JSON Schema documents are nosniff, without a page policy', async () => {
    for (const [path, type] of [
      ['/api/dev/v1/openapi.json', 'application/json'],
      ['/healthz', 'application/json'],
      [CONVERSATION_FLOW_SCHEMA_PATH, 'application/schema+json'],
      ['/nowhere', 'application/problem+json'],
      ['/api/dev/v1/chatbots', 'application/problem+json'],
    ] as const) {
      const response = await app.call('GET', path, { key: null })
      expect(response.headers.get('content-type')).toStartWith(type)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-security-policy')).toBeNull()
    }
  })
})

describe('HSTS', () => {
  test('is sent on every answer when PARLEY_PUBLIC_URL is https, and never when it is http', async () => {
    const secure = testApp({ PARLEY_PUBLIC_URL: 'https://chat.example.com' })
    const plain = testApp({ PARLEY_PUBLIC_URL: 'http://chat.example.com' })
    try {
      for (const path of ['/', '/healthz', '/widget.js', '/nowhere']) {
        expect((await secure.call('GET', path, { key: null })).headers.get('strict-transport-security')).toBe('max-age=31536000')
        expect((await plain.call('GET', path, { key: null })).headers.get('strict-transport-security')).toBeNull()
      }
    } finally {
      await secure.close()
      await plain.close()
    }
  })
})

describe('the policies themselves', () => {
  test('no page may run inline script unhashed or be framed: the strict default and every named page', () => {
    for (const path of ['/', '/api/dev/v1/reference', '/app', '/app/conversations/1']) {
      const policy = pagePolicy(path)
      expect(cspDirective(policy, 'script-src')?.join(' ')).not.toContain('unsafe')
      expect(cspDirective(policy, 'frame-ancestors')).toEqual(["'none'"])
      expect(cspDirective(policy, 'base-uri')).toEqual(["'none'"])
    }
    expect(pagePolicy('/app')).not.toContain('unsafe')
  })

  test('inline hashes cover every inline element and skip scripts loaded by src', () => {
    const html = '<script>a()</script><script src="/x.js"></script><script type="module">b()</script><style>p{}</style>'
    expect(inlineHashes(html, 'script')).toEqual([sha256('a()'), sha256('b()')])
    expect(inlineHashes(html, 'style')).toEqual([sha256('p{}')])
    expect(inlineHashes('<p>none</p>', 'script')).toEqual(["'none'"])
  })
})
