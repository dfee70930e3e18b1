import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'

const binary = compiledParley()

describe('the compiled executable', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'))
  const env = { PARLEY_DATA_DIR: dataDir }
  const cli = (...args: string[]) => {
    const result = Bun.spawnSync([binary, ...args], { env: { ...process.env, ...env } })
    return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
  }
  let server: RunningParley | undefined

  afterAll(async () => {
    await server?.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('answers --version and --help', () => {
    expect(cli('--version').stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
    const help = cli('--help').stdout
    for (const command of ['serve', 'keys create', 'keys list', 'keys revoke', 'backup']) expect(help).toContain(command)
  })

  test('refuses bad configuration at start with one clear line', () => {
    const result = Bun.spawnSync([binary, 'serve'], { env: { ...process.env, ...env, PORT: 'eighty' } })
    expect(result.exitCode).toBe(1)
    expect(result.stderr.toString().trim()).toBe('parley: PORT must be a whole number from 0 to 65535, got "eighty"')
  })

  test('serves, creates keys from the CLI, backs up while serving and stops cleanly on SIGTERM', async () => {
    server = await runParley([binary], env)
    expect(server.output()).toContain('Its API key, shown this once')

    const created = cli('keys', 'create', '--name', 'e2e')
    expect(created.code).toBe(0)
    const key = created.stdout.trim()
    expect(key).toMatch(/^pk_[0-9A-Za-z]{40}$/)
    expect(created.stdout).toBe(`${key}\n`)

    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const made = await fetch(`${server.url}/api/dev/v1/chatbots`, { method: 'POST', headers, body: JSON.stringify({ name: 'From e2e' }) })
    expect(made.status).toBe(201)
    const bot = (await made.json()) as { id: string }
    const read = await fetch(`${server.url}/api/dev/v1/chatbots/${bot.id}`, { headers })
    expect(await read.json()).toMatchObject({ id: bot.id, name: 'From e2e' })

    const backupFile = join(dataDir, 'backup.db')
    const backedUp = cli('backup', backupFile)
    expect(backedUp.code).toBe(0)
    expect(cli('backup', backupFile).stderr).toContain('already exists')

    // The WAL is folded back by a worker thread, whose module the binary carries.
    expect(server.output()).toContain('"msg":"background checkpoints on"')
    expect(cli('keys', 'list').stdout).toContain('e2e')
    expect(cli('keys', 'list').stdout).not.toContain(key)

    // A request still uploading when SIGTERM arrives is finished, not dropped.
    const slowBody = new ReadableStream<Uint8Array>({
      async start(controller) {
        const body = new TextEncoder().encode(JSON.stringify({ name: 'In flight' }))
        controller.enqueue(body.slice(0, 5))
        await Bun.sleep(400)
        controller.enqueue(body.slice(5))
        controller.close()
      },
    })
    const inFlight = fetch(`${server.url}/api/dev/v1/chatbots`, { method: 'POST', headers, body: slowBody })
    await Bun.sleep(150)
    const exited = server.stop('SIGTERM')
    const late = await inFlight
    expect(late.status).toBe(201)
    expect(await exited).toBe(0)
    expect(server.output()).toContain('"msg":"stopped"')
    server = undefined

    const copy = new Database(backupFile, { readonly: true })
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
    expect(copy.query('SELECT name FROM chatbots WHERE id = ?').get(bot.id)).toEqual({ name: 'From e2e' })
    copy.close()

    const live = new Database(join(dataDir, 'parley.db'), { readonly: true })
    // The demo chatbot of the first start, and the two made here.
    expect(live.query('SELECT count(*) AS n FROM chatbots').get()).toEqual({ n: 3 })
    live.close()
  }, 60_000)

  test('revoking a key from the CLI locks it out of a running server', async () => {
    server = await runParley([binary], env)
    expect(server.output()).not.toContain('shown this once')
    const key = cli('keys', 'create', '--name', 'short-lived').stdout.trim()
    const headers = { authorization: `Bearer ${key}` }
    expect((await fetch(`${server.url}/api/dev/v1/chatbots`, { headers })).status).toBe(200)
    expect(cli('keys', 'revoke', key.slice(0, 11)).code).toBe(0)
    // The server trusts a verified key for up to KEY_CACHE_MS (1 s); poll well past that.
    let status = 200
    for (let tries = 0; tries < 50 && status === 200; tries++) {
      await Bun.sleep(100)
      status = (await fetch(`${server.url}/api/dev/v1/chatbots`, { headers })).status
    }
    expect(status).toBe(401)
    expect(await server.stop('SIGINT')).toBe(0)
    server = undefined
  }, 60_000)
})
