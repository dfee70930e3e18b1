import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'

const root = join(import.meta.dir, '../..')

describe('the compiled executable carries the desk app', () => {
  const away = mkdtempSync(join(tmpdir(), 'parley-moved-app-'))
  const binary = join(away, 'parley')
  let server: RunningParley | undefined

  beforeAll(() => {
    copyFileSync(compiledParley(), binary)
  }, 120_000)
  afterAll(async () => {
    await server?.stop('SIGKILL')
    rmSync(away, { recursive: true, force: true })
  })

  test('a copy moved away from the build tree serves /app and its assets from inside itself', async () => {
    const script = await Bun.file(join(root, 'dist/app/app.js')).text()
    const styles = await Bun.file(join(root, 'dist/app/app.css')).text()
    const spawnedFrom = process.cwd()
    process.chdir(away)
    try {
      server = await runParley([binary], { PARLEY_DATA_DIR: join(away, 'data') })
    } finally {
      process.chdir(spawnedFrom)
    }
    const page = await fetch(`${server.url}/app/c/01JD3Q3M9Z5W6X7Y8Z9A0B1C2D`)
    expect(page.status).toBe(200)
    const html = await page.text()
    const scriptPath = /src="(\/app\/assets\/app-[^"]+\.js)"/.exec(html)?.[1]
    const stylesPath = /href="(\/app\/assets\/app-[^"]+\.css)"/.exec(html)?.[1]
    expect(await (await fetch(`${server.url}${scriptPath}`, { headers: { 'accept-encoding': 'identity' } })).text()).toBe(script)
    expect(await (await fetch(`${server.url}${stylesPath}`, { headers: { 'accept-encoding': 'identity' } })).text()).toBe(styles)
  }, 60_000)
})
