import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { movedBinary } from './support/moved-binary.ts'

const root = join(import.meta.dir, '../..')

describe('the compiled executable carries the widget', () => {
  const moved = movedBinary()

  test('a copy moved away from the build tree serves /widget.js, /widget-live.js, /widget-chat.js and /widget-chat.css from inside itself', async () => {
    const widget = await Bun.file(join(root, 'dist/widget/widget.js')).text()
    // The bytes are in the executable, not a path back into the build tree.
    expect((await Bun.file(moved.binary).text()).includes(widget)).toBe(true)

    const server = await moved.start()
    const response = await fetch(`${server.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await response.text()).toBe(widget)
    const compressed = await fetch(`${server.url}/widget.js`, { headers: { 'accept-encoding': 'br' }, decompress: false } as RequestInit)
    expect(compressed.headers.get('content-encoding')).toBe('br')
    // The open chat's stylesheet, loaded by the widget on the first open, is carried too.
    const chatStylesheet = await fetch(`${server.url}/widget-chat.css`, { headers: { 'accept-encoding': 'identity' } })
    expect(chatStylesheet.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await chatStylesheet.text()).toBe(await Bun.file(join(root, 'dist/widget/widget-chat.css')).text())
    // The rest of the widget, which widget.js adds once the bubble is drawn.
    const liveScript = await fetch(`${server.url}/widget-live.js?v=1`, { headers: { 'accept-encoding': 'identity' } })
    expect(liveScript.status).toBe(200)
    expect(await liveScript.text()).toBe(await Bun.file(join(root, 'dist/widget/widget-live.js')).text())
    // And the open chat's script, which widget-live.js asks for with its build's hash.
    const chatScript = await fetch(`${server.url}/widget-chat.js?v=1`, { headers: { 'accept-encoding': 'identity' } })
    expect(chatScript.status).toBe(200)
    expect(chatScript.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await chatScript.text()).toBe(await Bun.file(join(root, 'dist/widget/widget-chat.js')).text())
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('/api/dev/v1/reference')
  }, 60_000)
})
