import { describe, expect, test } from 'bun:test'
import { QUEUE_STUB } from '../../widget/src/queue-stub.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'

/** Well-formed, but no web integration has it. */
const UNKNOWN_KEY = 'wk_0000000000000000000000'

/** The runtime-injection snippet exactly as docs/widget.md shows it. */
const documentedInjection = async () => {
  const doc = await Bun.file(new URL('../../docs/widget.md', import.meta.url)).text()
  const section = doc.slice(doc.indexOf('### Injecting it at runtime'))
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1]
  if (!code?.includes("querySelector('script[data-widget-key]')")) throw new Error('docs/widget.md lost its runtime-injection snippet')
  return code
}

describe('embedding the widget script in Chromium', () => {
  const suite = browserSuite()
  const { opened } = suite

  async function visit(url: string): Promise<WidgetPage> {
    const visitor = await WidgetPage.open(suite.browser)
    opened.push(visitor)
    await visitor.goto(url)
    return visitor
  }

  test('an unknown key: window.ParleyWidget is defined, nothing is drawn, and the console says why', async () => {
    suite.host.page('/unknown', embedPage({ serverUrl: suite.parley.url, widgetKey: UNKNOWN_KEY }))
    const visitor = await visit(suite.host.url('shop.test', '/unknown'))
    await visitor.page.waitForFunction(() => (window as any).ParleyWidget?.loaded === true)
    expect(await visitor.page.evaluate(() => [typeof (window as any).ParleyWidget.identify, typeof (window as any).ParleyWidget.setContactDetails])).toEqual([
      'function',
      'function',
    ])
    await waitUntil(() => visitor.warnings().length > 0, 'the widget warns', { seen: () => visitor.console })
    expect(visitor.warnings()).toEqual(['ParleyWidget: the server refused this widget: no widget has this key (HTTP 404)'])
    expect(await visitor.host.count()).toBe(0)
    expect(visitor.sockets).toEqual([])
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test('a malformed key is explained in the console and installs nothing', async () => {
    suite.host.page('/malformed', embedPage({ serverUrl: suite.parley.url, widgetKey: 'pk_not_a_widget_key' }))
    const visitor = await visit(suite.host.url('shop.test', '/malformed'))
    await waitUntil(() => visitor.warnings().length > 0, 'the widget warns', { seen: () => visitor.console })
    expect(visitor.warnings()).toEqual([
      'ParleyWidget: data-widget-key must be the wk_... key of a web integration, got "pk_not_a_widget_key"; the widget is not shown',
    ])
    expect(await visitor.page.evaluate(() => typeof (window as any).ParleyWidget)).toBe('undefined')
  }, E2E_TIMEOUT)

  test('the queue stub lets the page call the API first; the widget takes the calls over and checks them', async () => {
    const stubbed = `<script>${QUEUE_STUB}
ParleyWidget.identify('ada@lovelace.dev');
ParleyWidget.setContactDetails({ plan: { nested: true } });
</script>`
    suite.host.page('/stub', embedPage({ serverUrl: suite.parley.url, widgetKey: UNKNOWN_KEY, head: stubbed }))
    const visitor = await visit(suite.host.url('shop.test', '/stub'))
    await visitor.page.waitForFunction(() => (window as any).ParleyWidget?.loaded === true)
    expect(await visitor.page.evaluate(() => (window as any).ParleyWidget.q)).toBeUndefined()
    expect(visitor.warnings()[0]).toBe('ParleyWidget: setContactDetails(): "plan" is not a string, number or boolean; dropped')
  }, E2E_TIMEOUT)

  test('injected at runtime with the documented snippet, as often as the app likes: one script, one widget, one socket', async () => {
    const chat = await setUpWebChat(suite.parley.app)
    const injection = (await documentedInjection()).replace('https://chat.example.org', suite.parley.url).replace('wk_...', chat.widgetKey)
    // A single-page app whose router runs its "add the chat" code on every view.
    suite.host.page(`/spa/${chat.chatbotId}`, `<!doctype html><html><head><meta charset="utf-8"><title>SPA</title></head><body><h1>App</h1>
<script>function addChat() {\n${injection}\n}</script></body></html>`)
    const visitor = await visit(suite.host.url('shop.test', `/spa/${chat.chatbotId}`))
    await visitor.page.evaluate(() => {
      ;(window as any).addChat()
      ;(window as any).addChat()
    })
    await visitor.launcher.waitFor({ state: 'visible' })
    await visitor.connected()
    await visitor.page.evaluate(() => (window as any).addChat())
    await visitor.openChat()
    await visitor.shownText('Pick one')
    expect(await visitor.page.locator('script[data-widget-key]').count()).toBe(1)
    expect(await visitor.page.evaluate(() => document.querySelectorAll('#parley-widget').length)).toBe(1)
    expect(visitor.sockets).toHaveLength(1)
    expect(visitor.warnings()).toEqual([])
  }, E2E_TIMEOUT)

  test('loaded twice anyway (two tags, or an injection without the check): only the first copy runs, and it says so', async () => {
    const chat = await setUpWebChat(suite.parley.app)
    const second = `<script src="${suite.parley.url}/widget.js" data-widget-key="${chat.widgetKey}"></script>`
    suite.host.page(`/twice/${chat.chatbotId}`, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey, attributes: '' }).replace('</body>', `${second}\n</body>`))
    const visitor = await visit(suite.host.url('shop.test', `/twice/${chat.chatbotId}`))
    await visitor.connected()
    // A third copy added later, without the documented check.
    await visitor.page.evaluate(
      ({ src, key }) => {
        const script = document.createElement('script')
        script.src = src
        script.dataset.widgetKey = key
        document.body.appendChild(script)
      },
      { src: `${suite.parley.url}/widget.js`, key: chat.widgetKey },
    )
    const once = 'ParleyWidget: the widget script is included more than once; only the first copy runs'
    await waitUntil(() => visitor.warnings().filter((warning) => warning === once).length === 2, 'both extra copies warned', {
      seen: () => visitor.warnings(),
    })
    await visitor.openChat()
    await visitor.shownText('Pick one')
    expect(await visitor.page.evaluate(() => document.querySelectorAll('#parley-widget').length)).toBe(1)
    expect(visitor.sockets).toHaveLength(1)
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)

  test("the console's snippet (the key in the script's address too): a page outside allowed_domains is refused as before; an allowed one draws the widget with no configuration request", async () => {
    const chat = await setUpWebChat(suite.parley.app, { web: { allowed_domains: ['shop.test'] } })
    const path = `/origins/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey, keyedSrc: true }))

    const evil = await visit(suite.host.url('evil.test', path))
    await waitUntil(() => evil.warnings().length > 0, 'the widget warns', { seen: () => evil.console })
    expect(evil.warnings()).toEqual([
      `ParleyWidget: the server refused this widget: origin http://evil.test:${suite.host.port} may not load this widget (HTTP 403)`,
    ])
    expect(await evil.host.count()).toBe(0)
    expect(evil.sockets).toEqual([])
    expect(evil.pageErrors()).toEqual([])

    // The same page on an allowed host works, its configuration carried by the script.
    const shop = await WidgetPage.open(suite.browser)
    opened.push(shop)
    const asked: string[] = []
    shop.page.on('request', (request) => asked.push(new URL(request.url()).pathname))
    await shop.goto(suite.host.url('shop.test', path))
    await shop.connected()
    expect(asked.filter((path) => path.startsWith('/widget/v1/config'))).toEqual([])
    expect(asked).toContain('/widget.js')
    await shop.openChat()
    await shop.shownText('Pick one')
    expect(shop.warnings()).toEqual([])
  }, E2E_TIMEOUT)
})
