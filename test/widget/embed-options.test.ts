import { describe, expect, test } from 'bun:test'
import { findWidgetScript, readEmbedOptions } from '../../widget/src/embed-options.ts'

const KEY = 'wk_3mF8qLr2VxT9pZcW4nY7bK'

function script(attributes: Record<string, string>, src = '') {
  return { src, getAttribute: (name: string) => attributes[name] ?? null }
}

describe('finding the widget script and reading its attributes', () => {
  test('uses document.currentScript when it carries data-widget-key', () => {
    const current = script({ 'data-widget-key': KEY })
    const doc = { currentScript: current, querySelector: () => script({ 'data-widget-key': 'other' }) }
    expect(findWidgetScript(doc)).toBe(current)
  })

  test('falls back to a query for script[data-widget-key] when currentScript is null (injected or module scripts)', () => {
    const found = script({ 'data-widget-key': KEY })
    let asked = ''
    const doc = {
      currentScript: null,
      querySelector: (selector: string) => {
        asked = selector
        return found
      },
    }
    expect(findWidgetScript(doc)).toBe(found)
    expect(asked).toBe('script[data-widget-key]')
  })

  test('also falls back when currentScript is another script (a loader that evaluates ours)', () => {
    const found = script({ 'data-widget-key': KEY })
    expect(findWidgetScript({ currentScript: script({}), querySelector: () => found })).toBe(found)
  })

  test('the server is the origin of the script src by default', () => {
    expect(readEmbedOptions(script({ 'data-widget-key': KEY }, 'https://chat.shop.dev/widget.js?v=2'))).toEqual({
      widgetKey: KEY,
      serverUrl: 'https://chat.shop.dev',
    })
  })

  test('data-server-url overrides it (its origin)', () => {
    const options = readEmbedOptions(script({ 'data-widget-key': KEY, 'data-server-url': 'https://parley.internal:8443/' }, 'https://cdn.shop.dev/widget.js'))
    expect(options).toEqual({ widgetKey: KEY, serverUrl: 'https://parley.internal:8443' })
  })

  test.each([
    ['no script', null, 'no <script data-widget-key="wk_..."> found'],
    ['an empty key', script({ 'data-widget-key': '' }, 'https://chat.shop.dev/widget.js'), 'data-widget-key must be the wk_... key'],
    ['an API key instead of a widget key', script({ 'data-widget-key': 'pk_abcdefghijklmnop' }, 'https://chat.shop.dev/widget.js'), 'got "pk_abcdefghijklmnop"'],
    ['a relative data-server-url', script({ 'data-widget-key': KEY, 'data-server-url': 'parley.shop.dev' }, 'https://x.dev/widget.js'), 'data-server-url must be an absolute http(s) address'],
    ['a javascript: data-server-url', script({ 'data-widget-key': KEY, 'data-server-url': 'javascript:alert(1)' }, 'https://x.dev/widget.js'), 'data-server-url must be'],
    ['an inline script without data-server-url', script({ 'data-widget-key': KEY }), 'cannot tell the server address'],
  ])('explains %s', (_, element, problem) => {
    const options = readEmbedOptions(element)
    expect('problem' in options && options.problem).toContain(problem)
  })
})

describe('the configuration a script carried (/widget.js?key=...)', () => {
  const boot = { name: 'Site', greeting_message: null, widget_config: { primary_color: '#112233' }, socket_path: `/widget/v1/socket?key=${KEY}` }
  const carrying = (parleyBoot: unknown, src = `https://chat.example.org/widget.js?key=${KEY}`, attributes: Record<string, string> = {}) => ({
    ...script({ 'data-widget-key': KEY, ...attributes }, src),
    parleyBoot,
  })

  test("is used when it is this key's and came from the server the widget talks to", () => {
    expect(readEmbedOptions(carrying({ key: KEY, boot }))).toEqual({ widgetKey: KEY, serverUrl: 'https://chat.example.org', given: boot as never })
  })

  test.each([
    ['another key', { key: 'wk_someoneelse1234', boot }, undefined],
    ['not the shape of a configuration', { key: KEY, boot: { name: 'x' } }, undefined],
    ['nothing at all', 'junk', undefined],
    ['another server than data-server-url names', { key: KEY, boot }, { 'data-server-url': 'https://other.example.org' }],
  ] as const)('is ignored for %s: the widget asks its server', (_, parleyBoot, attributes) => {
    const options = readEmbedOptions(carrying(parleyBoot, undefined, attributes ?? {}))
    expect('given' in options).toBe(false)
    expect('widgetKey' in options).toBe(true)
  })
})
