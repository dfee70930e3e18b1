#!/usr/bin/env bun
/**
 * npm run bench:compare -- REF [RUNS]
 * This tree against another commit, on the same machine in one session: REF is checked out in
 * a temporary git worktree (its node_modules linked to this tree's when both package-lock.json
 * files are the same, else installed there with npm ci), its widget and app are built, and each
 * tree's own bench:http and bench:ws (the chat, without the idle sockets) run RUNS times
 * (default 5), alternated in ABBA order (this tree first in odd runs, REF in even ones). Each run prints its ratio against its own bare
 * baseline; the medians are printed side by side. The temporary worktree is removed at the end.
 * BENCH_COMPARE=http or ws runs one of the two.
 * Each run also profiles both trees under the same two loads (scripts/bench/profile.ts, this
 * tree's copy in both): the serving thread's CPU per request or turn against the bare
 * baseline's, read from /proc. On a machine shared with other work the req/s and msg/s ratios
 * swing with whoever else has the cores; CPU time does not count the waits, so its ratio is the
 * steadier figure. BENCH_COMPARE_CPU=0 leaves it out.
 */
import { spawn, spawnSync } from 'bun'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const here = join(import.meta.dir, '../..')
const [ref, runsArg = '5'] = process.argv.slice(2)
if (!ref) throw new Error('usage: compare.ts REF [RUNS]')
const RUNS = Number(runsArg)
const benches = (process.env.BENCH_COMPARE ?? 'http,ws').split(',') as ('http' | 'ws')[]
const withCpu = process.env.BENCH_COMPARE_CPU !== '0'
/** What profile.ts needs that older trees may lack. */
const PROFILE_SCRIPTS = ['scripts/bench/profile.ts', 'scripts/bench/cpu-profile-summary.ts']

function git(...args: string[]): string {
  const result = spawnSync(['git', ...args], { cwd: here, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.toString()}`)
  return result.stdout.toString().trim()
}

/** Runs a command to its end (asynchronously, so that a signal can still clean up meanwhile). */
async function run(command: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn(command, { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  const output = stdout + stderr
  if (code !== 0) throw new Error(`${command.join(' ')} in ${cwd} failed:\n${output.slice(-3000)}`)
  return output
}

const commit = git('rev-parse', '--verify', `${ref}^{commit}`)
const other = join(mkdtempSync(join(tmpdir(), 'parley-compare-')), 'tree')
git('worktree', 'add', '--detach', other, commit)
const cleanUp = () => {
  spawnSync(['git', 'worktree', 'remove', '--force', other], { cwd: here })
  rmSync(join(other, '..'), { recursive: true, force: true })
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    cleanUp()
    process.exit(130)
  })
}

try {
  const lock = (tree: string) => (existsSync(join(tree, 'package-lock.json')) ? readFileSync(join(tree, 'package-lock.json'), 'utf8') : '')
  if (lock(other) === lock(here)) {
    // The same locked packages: linking is safe and saves minutes.
    symlinkSync(join(here, 'node_modules'), join(other, 'node_modules'))
  } else {
    console.log(`${commit.slice(0, 7)} locks other packages: npm ci there...`)
    await run(['npm', 'ci', '--no-audit', '--no-fund'], other)
  }
  const bun = process.execPath
  for (const file of PROFILE_SCRIPTS) copyFileSync(join(here, file), join(other, file))
  for (const tree of [here, other]) {
    await run([bun, 'scripts/build-widget.ts'], tree)
    await run([bun, 'scripts/build-app.ts'], tree)
  }

  const head = git('rev-parse', '--short', 'HEAD') + (git('status', '--porcelain') ? '+changes' : '')
  const trees = [
    { name: `this tree (${head})`, dir: here },
    { name: `${ref} (${commit.slice(0, 7)})`, dir: other },
  ]
  const scripts = { http: 'scripts/bench/http.ts', ws: 'scripts/bench/ws.ts' }
  const figures: Record<string, Record<string, number[]>> = {}
  console.log(`bench:compare ${trees[0]?.name} against ${trees[1]?.name}: ${benches.join(' and ')}, ${RUNS} runs each, alternated`)
  // ABBA order: whichever tree runs right after the heavier bench's teardown (1,000 sockets
  // closing, a server's exit) is measured in a worse minute, so neither tree always does.
  const settle = () => Bun.sleep(3000)
  for (let index = 1; index <= RUNS; index++) {
    const order = index % 2 === 1 ? trees : [...trees].reverse()
    for (const bench of benches) {
      for (const tree of order) {
        await settle()
        const output = await run([bun, scripts[bench]], tree.dir, { BENCH_IDLE: '0' })
        const ratio = Number(/ratio parley\/bare: ([\d.]+)/.exec(output)?.[1])
        const rate = /^parley[^\n]*?:\s+(\d+) (?:req|msg)\/s/m.exec(output)?.[1] ?? '?'
        ;((figures[bench] ??= {})[tree.name] ??= []).push(ratio)
        console.log(`  run ${index} ${bench.padEnd(4)} ${tree.name.padEnd(32)} ratio ${ratio.toFixed(2)}  (parley ${rate}/s)`)
      }
      if (!withCpu) continue
      for (const tree of order) {
        await settle()
        const output = await run([bun, 'scripts/bench/profile.ts', bench, '5'], tree.dir)
        const ratio = Number(/CPU ratio bare\/parley: ([\d.]+)/.exec(output)?.[1])
        const perUnit = /serving thread's CPU time \(\/proc\): ([\d.]+) µs/.exec(output)?.[1] ?? '?'
        ;((figures[`${bench} cpu`] ??= {})[tree.name] ??= []).push(ratio)
        console.log(`  run ${index} ${bench.padEnd(4)} ${tree.name.padEnd(32)} CPU ratio ${ratio.toFixed(2)}  (parley ${perUnit} µs per ${bench === 'http' ? 'request' : 'turn'})`)
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
  const targets = { http: 0.6, ws: 0.7 }
  console.log('')
  console.log(`| bench | ${trees.map((tree) => tree.name).join(' | ')} |`)
  console.log(`|---|${trees.map(() => '---:').join('|')}|`)
  for (const key of benches.flatMap((bench) => (withCpu ? [bench, `${bench} cpu`] : [bench]))) {
    const cells = trees.map((tree) => {
      const values = figures[key]?.[tree.name] ?? []
      return `${median(values).toFixed(2)} (${values.map((value) => value.toFixed(2)).join(', ')})`
    })
    const label = key.endsWith(' cpu') ? `bench:${key.split(' ')[0]} CPU ratio (bench:profile), median (runs)` : `bench:${key} ratio, median (runs)`
    console.log(`| ${label} | ${cells.join(' | ')} |`)
  }
  for (const bench of benches) {
    for (const key of withCpu ? [bench, `${bench} cpu`] : [bench]) {
      const ours = median(figures[key]?.[trees[0]?.name as string] ?? [])
      const what = key === bench ? 'median ratio' : 'median CPU ratio'
      console.log(`bench:${bench} this tree: ${what} ${ours.toFixed(2)} (target >= ${targets[bench].toFixed(2)}) ${ours >= targets[bench] ? 'MET' : 'NOT MET'}`)
    }
  }
} finally {
  cleanUp()
}
