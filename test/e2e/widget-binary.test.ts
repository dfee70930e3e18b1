import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'

const root = join(import.meta.dir, '../..')

describe('the compiled executable carries the widget', () => {
  const away = mkdtempSync(join(tmpdir(), 'parley-moved-'))
  const binary = join(away, 'parley')
  let server: RunningParley | undefined

  beforeAll(() => {
    copyFileSync(compiledParley(), binary)
  }, 120_000)
  afterAll(async () => {
    await server?.stop('SIGKILL')
    rmSync(away, { recursive: true, force: true })
  })

  test('a copy moved away from the build tree serves /widget.js from inside itself', async () => {
    const widget = await Bun.file(join(root, 'dist/widget/widget.js')).text()
    // The bytes are in the executable, not a path back into the build tree.
    expect((await Bun.file(binary).text()).includes(widget)).toBe(true)

    const spawnedFrom = process.cwd()
    process.chdir(away)
    try {
      server = await runParley([binary], { PARLEY_DATA_DIR: join(away, 'data') })
    } finally {
      process.chdir(spawnedFrom)
    }
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
