#!/usr/bin/env bun
/**
 * npm test: prepares what the tests need, runs every test under test/, and ends with one
 * line "N passed, N failed" (the line CI reads).
 *
 * PARLEY_TEST_WORKERS=N (default 1) runs the files in N `bun test` worker processes, each
 * keeping its modules across the files it runs as the single process does; test/timings.json
 * (each file's duration; `-- --update-timings` refreshes it) starts the slowest first. Every
 * file makes its own ports (port 0), data folders (mkdtemp) and browser contexts, so files
 * can run at once; but on the shared 2-core machine two workers took 462 s against one
 * worker's 482 s, and put CPU-bound files side by side (argon2 sign-ins, Chromium), which then
 * ran 3-5 times slower and one timed out. Worth it where there are more cores.
 */
import { spawn } from 'bun'
import { existsSync } from 'node:fs'
import { startPostgresCluster } from '../test/support/postgres-cluster.ts'
import { CLUSTER_VARIABLE } from '../test/support/postgres-database.ts'

const root = new URL('..', import.meta.url).pathname
const prepare = [`${root}scripts/prepare-tests.sh`]

const ready = spawn(prepare, { cwd: root, stdout: 'inherit', stderr: 'inherit' })
if ((await ready.exited) !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}

// The compiled binary is the product: build it once from these sources for every test that runs it.
const build = spawn([process.execPath, `${root}scripts/build.ts`], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
if ((await build.exited) !== 0) {
  console.log('0 passed, 1 failed')
  process.exit(1)
}

// One PostgreSQL cluster for the whole run (every worker, every file): each test file copies its
// database from the cluster's migrated template. Stopped and removed when this script ends.
let cluster: Awaited<ReturnType<typeof startPostgresCluster>>
try {
  cluster = await startPostgresCluster()
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  console.log('0 passed, 1 failed')
  process.exit(1)
}
process.once('exit', cluster.stop)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))
const { initdb, copy, start, template } = cluster.startupMs
console.log(`PostgreSQL test cluster ready in ${Math.round(initdb + copy + start + template)} ms (initdb ${Math.round(initdb)}, copy ${Math.round(copy)}, start ${Math.round(start)}, template ${Math.round(template)})`)

const workers = Number(process.env.PARLEY_TEST_WORKERS ?? 1)
if (!Number.isInteger(workers) || workers < 1) {
  console.error(`PARLEY_TEST_WORKERS must be a whole number from 1, not ${process.env.PARLEY_TEST_WORKERS}`)
  console.log('0 passed, 1 failed')
  process.exit(1)
}
const timings = `${root}test/timings.json`
const inParallel = workers > 1 ? [`--parallel=${workers}`, '--no-isolate', ...(existsSync(timings) ? [`--timings=${timings}`] : [])] : []

// A set-up hook that hashes passwords (argon2id) can pass bun's default 5 s on a loaded CI
// machine; a timed-out hook closes its server under the tests that still run. 20 s still
// catches a hang. (bunfig.toml's `[test] timeout` is not a key bun test reads.)
const child = spawn([process.execPath, 'test', '--timeout=20000', ...inParallel, ...process.argv.slice(2)], {
  cwd: root,
  stdout: 'inherit',
  stderr: 'pipe',
  env: { ...process.env, FORCE_COLOR: '0', PARLEY_TEST_BINARY_BUILT: '1', [CLUSTER_VARIABLE]: cluster.server },
})
// bun test reports on stderr; echo it while counting.
let passed = 0
let failed = 0
const decoder = new TextDecoder()
let pending = ''
const reader = child.stderr.getReader()
for (;;) {
  const { value, done } = await reader.read()
  if (done) break
  const text = decoder.decode(value, { stream: true })
  process.stderr.write(text)
  pending += text
  const lines = pending.split('\n')
  pending = lines.pop() ?? ''
  for (const line of lines) {
    const pass = /^\s*(\d+) pass$/.exec(line)
    const fail = /^\s*(\d+) fail$/.exec(line)
    if (pass) passed = Number(pass[1])
    if (fail) failed = Number(fail[1])
  }
}
const code = await child.exited
if (code !== 0 && failed === 0) failed = 1
console.log(`${passed} passed, ${failed} failed`)
process.exit(code === 0 && failed === 0 ? 0 : 1)
