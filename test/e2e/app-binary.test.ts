import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { movedBinary } from './support/moved-binary.ts'

const root = join(import.meta.dir, '../..')

describe('the compiled executable carries the desk app', () => {
  const moved = movedBinary()

  test('a copy moved away from the build tree serves /app and its assets from inside itself', async () => {
    const script = await Bun.file(join(root, 'dist/app/app.js')).text()
    const styles = await Bun.file(join(root, 'dist/app/app.css')).text()
    const server = await moved.start()
    const page = await fetch(`${server.url}/app/c/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D`)
    expect(page.status).toBe(200)
    const html = await page.text()
    const scriptPath = /src="(\/app\/assets\/app-[^"]+\.js)"/.exec(html)?.[1]
    const stylesPath = /href="(\/app\/assets\/app-[^"]+\.css)"/.exec(html)?.[1]
    expect(await (await fetch(`${server.url}${scriptPath}`, { headers: { 'accept-encoding': 'identity' } })).text()).toBe(script)
    expect(await (await fetch(`${server.url}${stylesPath}`, { headers: { 'accept-encoding': 'identity' } })).text()).toBe(styles)
  }, 60_000)
})
