import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { FRAME_LIMITS } from '../../../server/protocol/widget-protocol.ts'
import { compiledParley } from '../../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../../support/run-parley.ts'

/**
 * What an anonymous visitor can make the compiled server do with the widget socket, measured
 * from outside: a probe of /healthz runs through the attack, and its slowest answer is
 * compared with a bound far above a quiet answer, so the check is about seconds of stall, not
 * milliseconds of noise.
 */
describe('no widget socket frame stalls the compiled server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-stall-'))
  let server: RunningParley | undefined
  let socketUrl = ''

  beforeAll(async () => {
    const binary = compiledParley()
    server = await runParley([binary], { PARLEY_DATA_DIR: dataDir })
    const created = Bun.spawnSync([binary, 'keys', 'create', '--name', 'stall'], { env: { ...process.env, PARLEY_DATA_DIR: dataDir } })
    const headers = { authorization: `Bearer ${created.stdout.toString().trim()}`, 'content-type': 'application/json' }
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${server!.url}/api/dev/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
      return (await response.json()) as { id: string; config: { widget_key: string } }
    }
    const bot = await post('/chatbots', { name: 'Stall' })
    const web = await post(`/chatbots/${bot.id}/integrations/web`, { name: 'Site' })
    socketUrl = `${server.url.replace('http', 'ws')}/widget/v1/socket?key=${web.config.widget_key}`
  }, 120_000)

  afterAll(async () => {
    await server?.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('a frame over the limit closes with 1009, as a real WebSocket client sees it', async () => {
    const socket = await openSocket(socketUrl)
    socket.send(JSON.stringify({ type: 'hello', v: 1 }))
    socket.send(JSON.stringify({ type: 'message', client_id: 'big', text: 'x'.repeat(FRAME_LIMITS.maxBytes) }))
    const closed = await closeOf(socket, 5000)
    expect(closed.code).toBe(CloseCode.frameTooLarge)
  })

  test('while sockets send 6.4 MiB frames of 400,000 keys and floods of bad frames, /healthz keeps answering', async () => {
    const probe = async () => {
      const started = performance.now()
      const response = await fetch(`${server!.url}/healthz`)
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`)
      return performance.now() - started
    }
    const quiet: number[] = []
    for (let i = 0; i < 40; i++) quiet.push(await probe())
    const quietMedian = quiet.sort((a, b) => a - b)[Math.floor(quiet.length / 2)]!
    // Far above a normal answer on any machine (a quiet probe takes about 0.2 ms), far below
    // the 1.35 s that one such frame used to hold the serving thread.
    const bound = Math.max(20 * quietMedian, 500)

    let attacking = true
    const during: number[] = []
    const probing = (async () => {
      while (attacking) during.push(await probe())
    })()
    const attacker = Bun.spawn([process.execPath, join(import.meta.dir, '../../fuzz/support/socket-attacker.ts'), socketUrl], { stdout: 'pipe', stderr: 'inherit' })
    const report = JSON.parse(await new Response(attacker.stdout).text()) as { frameBytes: number; outcomes: { answers: number; close: { code: number } | null }[] }
    await attacker.exited
    attacking = false
    await probing

    expect(report.frameBytes).toBeGreaterThan(6.4 * 1000 * 1000)
    const worst = Math.max(...during)
    expect(during.length).toBeGreaterThan(0)
    // Today about 50 ms on a busy 2-core machine; before frames were bounded, over 10 s.
    expect(worst).toBeLessThan(bound)
    // Every huge frame is refused from its header; every flood is closed after a few dozen answers.
    expect(report.outcomes.slice(0, 4).map((outcome) => outcome.close?.code)).toEqual(Array(4).fill(CloseCode.frameTooLarge))
    expect(report.outcomes.slice(4).map((outcome) => outcome.close?.code)).toEqual(Array(2).fill(CloseCode.rateLimited))
    for (const flood of report.outcomes.slice(4)) expect(flood.answers).toBeLessThanOrEqual(1 + 30 + 20)
  }, 60_000)
})

async function openSocket(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url)
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true })
    socket.addEventListener('error', () => reject(new Error('the socket did not open')), { once: true })
  })
  return socket
}

function closeOf(socket: WebSocket, ms: number): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket stayed open')), ms)
    socket.addEventListener('close', (event) => {
      clearTimeout(timer)
      resolve({ code: event.code, reason: event.reason })
    })
  })
}
