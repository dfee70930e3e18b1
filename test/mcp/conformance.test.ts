import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const SUITE = new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url).pathname
const CLIENT = new URL('./support/conformance-client.ts', import.meta.url).pathname
const output = mkdtempSync(join(tmpdir(), 'parley-conformance-'))

interface Check {
  id: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}

/** Runs one client scenario of the MCP project's suite against Parley; answers its checks and the client's output. */
async function runScenario(scenario: string): Promise<{ checks: Check[]; stdout: string }> {
  const dir = join(output, scenario)
  const child = Bun.spawn(['bun', SUITE, 'client', '--command', `bun ${CLIENT}`, '--scenario', scenario, '-o', dir, '--timeout', '60000'], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  await child.exited
  const [results] = readdirSync(dir)
  if (!results) throw new Error(`no results for ${scenario}: ${await new Response(child.stderr).text()}`)
  return {
    checks: JSON.parse(readFileSync(join(dir, results, 'checks.json'), 'utf8')) as Check[],
    stdout: readFileSync(join(dir, results, 'stdout.txt'), 'utf8'),
  }
}

/** The checks that decide a scenario (the suite also logs every request as INFO). */
const verdicts = (checks: Check[]) => checks.filter((check) => check.status !== 'INFO').map((check) => `${check.id}: ${check.status}`)

describe('the MCP conformance suite, client scenarios, against Parley', () => {
  // The scenarios run side by side: each starts its own server and its own Parley.
  const runs = { initialize: runScenario('initialize'), tools_call: runScenario('tools_call'), 'sse-retry': runScenario('sse-retry') }
  afterAll(() => rmSync(output, { recursive: true, force: true }))

  test('initialize: Parley initializes with its name and version and a supported protocol version', async () => {
    const { checks, stdout } = await runs.initialize
    expect(verdicts(checks)).toEqual(['mcp-client-initialization: SUCCESS'])
    expect(stdout).toContain('test: 200 {"ok":true')
  }, 90_000)

  test('tools_call: Parley lists the tool and calls it with the arguments', async () => {
    const { checks, stdout } = await runs.tools_call
    expect(verdicts(checks)).toEqual(['tool-add-numbers: SUCCESS'])
    expect(stdout).toContain('The sum of 5 and 3 is 8')
  }, 90_000)

  test('sse-retry: a closed response stream is resumed after the retry time, with Last-Event-ID', async () => {
    const { checks, stdout } = await runs['sse-retry']
    // The suite times the reconnection itself; a busy machine may make it "slightly late" (a warning).
    const timing = checks.find((check) => check.id === 'client-sse-retry-timing')
    expect(['SUCCESS', 'WARNING']).toContain(timing?.status as string)
    expect(verdicts(checks.filter((check) => check !== timing))).toEqual(['client-sse-graceful-reconnect: SUCCESS', 'client-sse-last-event-id: SUCCESS'])
    expect(stdout).toContain('Reconnection test completed successfully')
  }, 90_000)
})
