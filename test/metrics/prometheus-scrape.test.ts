import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { freePort } from '../support/free-port.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'

/**
 * Read by Prometheus itself (Debian's `prometheus`, installed by scripts/prepare-tests.sh):
 * `promtool check metrics` parses and lints what the compiled binary exposes, and a real
 * Prometheus server scrapes it with the token as its Bearer credentials.
 */
const TOKEN = 'scrape-token-0123456789abcdef0123456789'
const work = mkdtempSync(join(tmpdir(), 'parley-prometheus-'))
let parley: RunningParley | null = null
let prometheus: ReturnType<typeof Bun.spawn> | null = null
afterAll(async () => {
  prometheus?.kill()
  await prometheus?.exited
  await parley?.stop()
  rmSync(work, { recursive: true, force: true })
})

test('promtool accepts the exposition and a Prometheus server scrapes it with the token', async () => {
  parley = await runParley([compiledParley()], {
    PARLEY_DATA_DIR: join(work, 'data'),
    PARLEY_METRICS_TOKEN: TOKEN,
    PARLEY_BACKUP_EVERY: '1d',
    PARLEY_BACKUP_DIR: join(work, 'backups'),
  })
  for (const path of ['/healthz', '/readyz', '/widget.js', '/nowhere', '/api/dev/v1/chatbots']) await (await fetch(`${parley.url}${path}`)).arrayBuffer()
  const exposition = await (await fetch(`${parley.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()
  const check = Bun.spawnSync(['promtool', 'check', 'metrics'], { stdin: new TextEncoder().encode(exposition) })
  expect(`${check.stdout}${check.stderr}`).toBe('')
  expect(check.exitCode).toBe(0)

  const port = freePort()
  const target = new URL(parley.url).host
  writeFileSync(
    join(work, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: parley\n    authorization:\n      credentials: ${TOKEN}\n    static_configs:\n      - targets: ['${target}']\n`,
  )
  prometheus = Bun.spawn(
    ['prometheus', `--config.file=${join(work, 'prometheus.yml')}`, `--storage.tsdb.path=${join(work, 'tsdb')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdout: 'ignore', stderr: 'ignore' },
  )
  const query = async (promql: string) => {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`)
      return ((await answer.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }).data.result
    } catch {
      return []
    }
  }
  let healthz: { value: [number, string] }[] = []
  for (let waited = 0; waited < 30_000 && healthz.length === 0; waited += 250) {
    await Bun.sleep(250)
    healthz = await query('parley_http_requests_total{route="/healthz",status="200"}')
  }
  expect(Number(healthz[0]?.value[1])).toBe(1)
  expect((await query('up{job="parley"}'))[0]?.value[1]).toBe('1')
  expect((await query('parley_http_requests_total{route="unmatched"}'))[0]?.value[1]).toBe('1')
  expect(Number((await query('parley_backups_kept'))[0]?.value[1])).toBe(1)
  expect(Number((await query('parley_database_bytes'))[0]?.value[1])).toBeGreaterThan(4096)
}, 60_000)
