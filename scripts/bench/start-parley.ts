import { spawn } from 'bun'
import { join } from 'node:path'
import { readUntil } from './read-until.ts'

const root = join(import.meta.dir, '../..')

/** A JSON call to the developer API with the workspace's key; throws on any status but 2xx. */
export type DevApi = (method: string, path: string, body?: unknown) => Promise<Record<string, any>>

/**
 * Starts `parley serve` on a fresh data directory, as the socket benchmarks use it: any port on
 * 127.0.0.1, no rate limits, warnings only; `env` adds to or overrides that. Resolves once it
 * listens, with the API key its first start printed and a `DevApi` bound to it.
 * BENCH_PROFILE=DIR writes a CPU profile of the server into DIR at exit: markdown, or a Chrome
 * .cpuprofile with BENCH_PROFILE_JSON=1 (count samples: idle gaps inflate the markdown's times).
 */
export async function startParley(dataDir: string, env: Record<string, string> = {}) {
  const profile = process.env.BENCH_PROFILE ? [process.env.BENCH_PROFILE_JSON ? '--cpu-prof' : '--cpu-prof-md', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  const proc = spawn([process.execPath, ...profile, 'server/main.ts', 'serve'], {
    cwd: root,
    env: { ...process.env, PARLEY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT: '0', PARLEY_SOCKET_RATE_LIMIT: '0', ...env },
    stdout: 'pipe',
    stderr: 'inherit',
  })
  // The first start prints the workspace's API key, then that it listens.
  const [, key, port] = (await readUntil(proc.stdout, /(pk_[0-9A-Za-z]{40})[\s\S]*?listening on port (\d+)/)) as unknown as [string, string, string]
  const api: DevApi = async (method, path, body) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/dev/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as Record<string, any>
  }
  return { proc, key, port, api }
}
