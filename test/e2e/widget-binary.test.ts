import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { movedBinary } from './support/moved-binary.ts'

const root = join(import.meta.dir, '../..')

describe('the compiled executable carries the widget', () => {
  const moved = movedBinary()

  test('a copy moved away from the build tree serves /widget.js from inside itself', async () => {
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
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('/api/dev/v1/reference')
  }, 60_000)
})
