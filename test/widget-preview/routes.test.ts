import { expect } from 'bun:test'
import { basename } from 'node:path'
import chunks from '../../dist/app/chunks.js'
import { scenarios } from '../support/scenarios.ts'

const [chunkName, chunkFile] = Object.entries(chunks).find(([name]) => name.startsWith('KeysScreen-')) as [string, string]

scenarios('the widget preview page and the app chunks', () => ({}), [
  {
    name: 'the preview page loads only its own script, may be framed by Parley alone, and allows the widget its inline stylesheet',
    method: 'GET',
    path: '/widget/v1/preview',
    key: null,
    status: 200,
    check: ({ headers, text }) => {
      expect(headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(text).toContain('<script src="/widget/v1/preview.js"></script>')
      const csp = headers.get('content-security-policy') ?? ''
      expect(csp).toContain("frame-ancestors 'self'")
      expect(csp).toContain("script-src 'self';")
      expect(csp).toContain("style-src 'self' 'unsafe-inline'")
      expect(headers.get('x-frame-options')).toBe('SAMEORIGIN')
    },
  },
  {
    name: 'its script loads the real widget script and answers only its configuration request from the fragment',
    method: 'GET',
    path: '/widget/v1/preview.js',
    key: null,
    status: 200,
    check: ({ headers, text }) => {
      expect(headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(text).toContain("script.src = '/widget.js'")
      expect(text).toContain("'/widget/v1/config/' + encodeURIComponent(preview.widget_key)")
    },
  },
  {
    name: 'every other page still refuses to be framed',
    method: 'GET',
    path: '/app/console',
    key: null,
    status: 200,
    check: ({ headers }) => {
      expect(headers.get('x-frame-options')).toBe('DENY')
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    },
  },
  {
    name: "a chunk of the app (a console screen) is served compressed and cached for a year: its name changes with its content",
    method: 'GET',
    path: `/app/assets/chunks/${chunkName}`,
    key: null,
    headers: { 'accept-encoding': 'gzip' },
    status: 200,
    check: async ({ headers }) => {
      expect(basename(chunkFile)).toContain('KeysScreen-')
      expect(headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(headers.get('content-encoding')).toBe('gzip')
    },
  },
  { name: 'an unknown chunk of the app answers 404', method: 'GET', path: '/app/assets/chunks/Nope-123.js', key: null, status: 404, code: 'not_found' },
])
