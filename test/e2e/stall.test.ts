import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFuzzParley, type FuzzParley, problemShape } from '../fuzz/support/fuzz-run.ts'
import { compiledParley } from '../support/compiled-parley.ts'

/**
 * Hostile inputs must not stall the server for everyone else: while each one is sent again and
 * again, a /healthz probe runs back to back, and the worst gap between its answers is compared
 * to a bound many times larger than a normal request. The bound is measured in the same run:
 * five times the worst gap while ordinary requests are sent the same way (the machine's own
 * noise), and never under 150 ms, hundreds of times a normal request (about 0.2 ms). Before the
 * body parser bounded nesting, one '[' x 100,000 body held the server for 220-290 ms and the
 * 20,000-deep object took it down; now they cost a few milliseconds.
 */

const binary = compiledParley()
const API = '/api/dev/v1'
/** How long one request may take before it counts as no answer; far past any bound below. */
const PATIENCE_MS = 5_000

interface StallMeasure {
  worstGapMs: number
  probes: number
  statuses: Map<number, number>
  /** What was wrong with the hostile answers that were errors but not problem+json, first few. */
  malformed: string[]
}

describe('hostile inputs to the compiled binary', () => {
  let parley: FuzzParley
  let normalMs = 0
  const boundMs = new Map<number, number>()

  beforeAll(async () => {
    parley = await startFuzzParley(binary, 1)
    // A normal request on this machine now: the median of a few dozen.
    const samples: number[] = []
    for (let i = 0; i < 40; i++) {
      const started = performance.now()
      await (await fetch(`${parley.url}/healthz`)).text()
      samples.push(performance.now() - started)
    }
    samples.sort((a, b) => a - b)
    normalMs = samples[Math.floor(samples.length / 2)] ?? 1
    for (const [times, concurrency] of [
      [30, 2],
      [3000, 16],
    ] as const) {
      const ordinary = await measure(times, () => fetch(`${parley.url}${API}/chatbots/${scene().chatbot_id}`, { headers: headers() }), concurrency)
      boundMs.set(concurrency, Math.max(150, ordinary.worstGapMs * 5))
      console.log(`ordinary requests, ${concurrency} at once: worst /healthz gap ${ordinary.worstGapMs.toFixed(1)} ms, median request ${normalMs.toFixed(2)} ms`)
    }
  }, 60_000)

  afterAll(async () => {
    await parley?.stop()
  })

  /** Sends `hostile()` `times` times (a few at once) while probing /healthz back to back. */
  async function measure(times: number, hostile: () => Promise<Response>, concurrency = 2): Promise<StallMeasure> {
    const result: StallMeasure = { worstGapMs: 0, probes: 0, statuses: new Map(), malformed: [] }
    let done = false
    const probe = (async () => {
      while (!done) {
        const started = performance.now()
        try {
          await (await fetch(`${parley.url}/healthz`, { signal: AbortSignal.timeout(PATIENCE_MS) })).text()
        } catch {
          // No answer at all (a stall past our patience, or a crash): a gap as long as we waited.
          done = true
        }
        result.worstGapMs = Math.max(result.worstGapMs, performance.now() - started)
        result.probes++
      }
    })()
    let next = 0
    const worker = async () => {
      while (next < times && !done) {
        next++
        let status = 0
        try {
          const response = await hostile()
          status = response.status
          const text = await response.text()
          const problem = status >= 400 ? problemShape({ status, contentType: response.headers.get('content-type') ?? '', text }) : undefined
          if (problem && result.malformed.length < 3) result.malformed.push(`${status}: ${problem}`)
        } catch (error) {
          if (result.malformed.length < 3) result.malformed.push(`no answer: ${error}`)
        }
        result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    done = true
    await probe
    return result
  }

  const headers = () => ({ authorization: `Bearer ${parley.key}`, 'content-type': 'application/json' })
  const scene = () => parley.scenes[0] ?? (undefined as never)
  const post = (path: string, body: string, method = 'POST') =>
    fetch(`${parley.url}${API}${path}`, { method, headers: headers(), body, signal: AbortSignal.timeout(PATIENCE_MS) })

  function expectNoStall(measured: StallMeasure, label: string, concurrency = 2) {
    const bound = boundMs.get(concurrency) ?? 150
    const summary = `${label}: worst /healthz gap ${measured.worstGapMs.toFixed(1)} ms over ${measured.probes} probes (bound ${bound.toFixed(0)} ms); statuses ${JSON.stringify([...measured.statuses])}`
    console.log(summary)
    expect(measured.statuses.get(0) ?? 0).toBe(0)
    expect([...measured.statuses.keys()].filter((status) => status >= 500)).toEqual([])
    expect(measured.probes).toBeGreaterThan(0)
    expect(measured.worstGapMs).toBeLessThan(bound)
  }

  const nested20000 = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`
  const brackets100000 = '['.repeat(100_000)

  test('a 117 KB body nested 20,000 deep, posted as a chatbot, is refused without stalling', async () => {
    expect(nested20000.length).toBeGreaterThan(117_000)
    const measured = await measure(30, () => post('/chatbots', nested20000))
    expectNoStall(measured, 'nested 20,000 deep to POST /chatbots')
    expect([...measured.statuses.keys()]).toEqual([400])
    expect(measured.malformed).toEqual([])
  }, 60_000)

  const bracketRoutes: [string, string, () => string][] = [
    ['POST', 'flows', () => `/chatbots/${scene().chatbot_id}/flows`],
    ['POST', 'web integration', () => `/chatbots/${scene().chatbot_id}/integrations/web`],
    ['PATCH', 'chatbot', () => `/chatbots/${scene().chatbot_id}`],
    ['POST', 'rest-api messages', () => `/chatbots/${scene().chatbot_id}/integrations/rest-api/messages`],
  ]
  for (const [method, label, path] of bracketRoutes) {
    test(`100,000 open brackets to the ${label} route (${method}) are refused without stalling`, async () => {
      const measured = await measure(30, () => post(path(), brackets100000, method))
      expectNoStall(measured, `'[' x 100,000 to ${method} ${label}`)
      expect([...measured.statuses.keys()]).toEqual([400])
      expect(measured.malformed).toEqual([])
    }, 60_000)
  }

  test('a 64 KB path is refused without stalling', async () => {
    const measured = await measure(30, () => fetch(`${parley.url}${API}/chatbots/${'A'.repeat(64 * 1024)}`, { headers: headers(), signal: AbortSignal.timeout(PATIENCE_MS) }))
    expectNoStall(measured, '64 KB path')
  }, 60_000)

  test('a 70 KB query is refused without stalling', async () => {
    const measured = await measure(30, () => fetch(`${parley.url}${API}/chatbots?offset=${'9'.repeat(70 * 1024)}`, { headers: headers(), signal: AbortSignal.timeout(PATIENCE_MS) }))
    expectNoStall(measured, '70 KB query')
  }, 60_000)

  test('thousands of wrong API keys are refused without stalling', async () => {
    let n = 0
    const measured = await measure(
      3000,
      () => fetch(`${parley.url}${API}/chatbots`, { headers: { authorization: `Bearer pk_${String(n++).padStart(40, 'x')}` }, signal: AbortSignal.timeout(PATIENCE_MS) }),
      16,
    )
    expectNoStall(measured, '3,000 wrong API keys', 16)
    expect([...measured.statuses.keys()].every((status) => status === 401 || status === 429)).toBe(true)
    expect(measured.malformed).toEqual([])
  }, 60_000)
})
