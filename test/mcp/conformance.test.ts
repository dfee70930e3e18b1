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

interface Run {
  checks: Check[]
  stdout: string
}

/** Runs client scenarios of the MCP project's suite against Parley (`--scenario x` or `--suite x`); answers each one's checks and the client's output. */
async function runConformance(select: ['--scenario' | '--suite', string]): Promise<Map<string, Run>> {
  const dir = join(output, select[1].replaceAll('/', '_'))
  const child = Bun.spawn(['bun', SUITE, 'client', '--command', `bun ${CLIENT}`, ...select, '-o', dir, '--timeout', '60000'], { stdout: 'pipe', stderr: 'pipe' })
  await child.exited
  // Results land in <dir>/<scenario>-<time>/ (auth scenarios: <dir>/auth/<name>-<time>/).
  const runs = new Map<string, Run>()
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('checks.json'))) {
    const folder = join(dir, file, '..')
    const scenario = file.replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z\/checks\.json$/, '')
    runs.set(scenario, { checks: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Check[], stdout: readFileSync(join(folder, 'stdout.txt'), 'utf8') })
  }
  if (runs.size === 0) throw new Error(`no results for ${select[1]}: ${await new Response(child.stderr).text()}`)
  return runs
}

async function runScenario(scenario: string): Promise<Run> {
  const run = (await runConformance(['--scenario', scenario])).get(scenario)
  if (!run) throw new Error(`no results for ${scenario}`)
  return run
}

/** The checks that decide a scenario (the suite also logs every request as INFO). */
const verdicts = (checks: Check[]) => checks.filter((check) => check.status !== 'INFO').map((check) => `${check.id}: ${check.status}`)

describe('the MCP conformance suite, client scenarios, against Parley', () => {
  // The scenarios run side by side: each starts its own server and its own Parley.
  const sseRetry = runScenario('sse-retry')
  // The auth runs start once sse-retry is over: the suite times that scenario's reconnection,
  // and 17 more Parleys starting beside it on a busy machine would make it late.
  const afterTiming = <T>(run: () => Promise<T>) => sseRetry.catch(() => {}).then(run)
  const runs = {
    initialize: runScenario('initialize'),
    tools_call: runScenario('tools_call'),
    'sse-retry': sseRetry,
    // The suite's auth scenarios for the current protocol (14, run side by side), and those of the other grants and versions Parley offers.
    auth: afterTiming(() => runConformance(['--suite', 'auth'])),
    'client-credentials-basic': afterTiming(() => runScenario('auth/client-credentials-basic')),
    backcompat: afterTiming(() => runScenario('auth/2025-03-26-oauth-metadata-backcompat')),
    fallback: afterTiming(() => runScenario('auth/2025-03-26-oauth-endpoint-fallback')),
  }
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

  test('auth suite: every scenario passes through oauth/start, the callback and the connection test; Parley has no client metadata document (one warning)', async () => {
    const auth = await runs.auth
    expect([...auth.keys()].sort()).toEqual(AUTH_SUITE)
    for (const [scenario, { checks, stdout }] of auth) {
      const expected = scenario === 'auth/basic-cimd' ? ['cimd-client-id-used: WARNING'] : []
      expect({ scenario, off: verdicts(checks).filter((verdict) => !verdict.endsWith(': SUCCESS')) }).toEqual({ scenario, off: expected })
      // scope-retry-limit's server never accepts the wider scope: Parley must stop asking, and says so.
      if (scenario === 'auth/scope-retry-limit') expect(stdout).toContain('insufficient_scope')
      else expect(stdout).toContain('test: 200 {"ok":true')
    }
    // Scope step-up: the server asked for more, a person authorized again, the call then worked.
    expect((auth.get('auth/scope-step-up') as Run).stdout).toMatch(/call [^:]+: 502[\s\S]*oauth\/start: 200[\s\S]*call [^:]+: 200/)
  }, 120_000)

  test('auth/client-credentials-basic: machine to machine with the client the suite gives, no person involved', async () => {
    const { checks, stdout } = await runs['client-credentials-basic']
    expect(verdicts(checks).filter((verdict) => !verdict.endsWith(': SUCCESS'))).toEqual([])
    expect(stdout).not.toContain('oauth/start')
    expect(stdout).toContain('test: 200 {"ok":true')
  }, 90_000)

  test('the 2025-03-26 authorization (metadata at the server origin, and default endpoints) passes too', async () => {
    for (const run of [await runs.backcompat, await runs.fallback]) {
      expect(verdicts(run.checks).filter((verdict) => !verdict.endsWith(': SUCCESS'))).toEqual([])
      expect(run.stdout).toContain('test: 200 {"ok":true')
    }
  }, 90_000)
})

const AUTH_SUITE = [
  'auth/basic-cimd',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/pre-registration',
  'auth/scope-from-scopes-supported',
  'auth/scope-from-www-authenticate',
  'auth/scope-omitted-when-undefined',
  'auth/scope-retry-limit',
  'auth/scope-step-up',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-none',
  'auth/token-endpoint-auth-post',
]
