#!/usr/bin/env bun
/**
 * npm run bench:soak
 * Memory over a long run: BENCH_SOAK_VISITORS (300) widget visitors chat at a human pace with
 * Parley's echo flow for BENCH_SOAK_MINUTES (30), each reloading its tab every 50 messages or so
 * (a returning visitor: its token, the history after its last message). The server's resident
 * memory is sampled throughout; after the first third (warming up: caches filling, the JIT), it
 * must level off: the last third may grow less than 5%. Every message must be answered.
 */
import { spawn } from 'bun'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publishEchoBot } from './publish-echo-bot.ts'
import { readUntil } from './read-until.ts'
import { startParley } from './start-parley.ts'

const root = join(import.meta.dir, '../..')
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30)
const VISITORS = Number(process.env.BENCH_SOAK_VISITORS ?? 300)
const PACE_MS = Number(process.env.BENCH_SOAK_PACE_MS ?? 1000)
const RECONNECT_EVERY = Number(process.env.BENCH_SOAK_RECONNECT ?? 50)
const durationMs = MINUTES * 60_000
const SAMPLES = 60
const sampleMs = Math.max(250, durationMs / SAMPLES)

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024

const dataDir = mkdtempSync(join(tmpdir(), 'parley-soak-'))
const { proc: parley, port, api } = await startParley(dataDir)
const { socketUrl } = await publishEchoBot(api, port, { chatbot: 'Soak bot', site: 'Soak site' })

console.log(`bench:soak ${VISITORS} visitors at a message every ~${PACE_MS} ms, a reload every ~${RECONNECT_EVERY} messages, for ${MINUTES} min`)
const visitors = spawn([process.execPath, 'scripts/bench/soak-visitors.ts', socketUrl, String(VISITORS), String(PACE_MS), String(RECONNECT_EVERY)], {
  cwd: root,
  stdin: 'pipe',
  stdout: 'pipe',
  stderr: 'inherit',
})
const [started, rest] = visitors.stdout.tee()
await readUntil(started, /started/)
const startedAt = performance.now()
const samples: { at: number; mb: number }[] = []
while (performance.now() - startedAt < durationMs) {
  await Bun.sleep(Math.min(sampleMs, durationMs - (performance.now() - startedAt)))
  const sample = { at: (performance.now() - startedAt) / 1000, mb: rssMb(parley.pid) }
  samples.push(sample)
  console.log(`  ${sample.at.toFixed(0).padStart(5)} s  RSS ${sample.mb.toFixed(1)} MB`)
}
visitors.stdin.end()
const text = await new Response(rest).text()
await visitors.exited
const result = JSON.parse(text.trim().split('\n').at(-1) as string) as { messages: number; answered: number; errors: number; reconnects: number }
parley.kill('SIGTERM')
await parley.exited
rmSync(dataDir, { recursive: true, force: true })

/** The RSS around a moment: the median of the samples within a twentieth of the run of it, to smooth the garbage collector's steps. */
const around = (seconds: number) => {
  const near = samples.filter((sample) => Math.abs(sample.at - seconds) <= durationMs / 1000 / 20).map((sample) => sample.mb)
  const values = near.length > 0 ? near : [samples.at(-1)?.mb ?? 0]
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
}
const total = durationMs / 1000
const third = around((2 * total) / 3)
const end = around(total)
const growth = (end - third) / third
console.log(`messages ${result.messages}, answered ${result.answered}, refused or lost ${result.errors}, reloads ${result.reconnects}`)
// A visitor stopped while its answer was on its way is not counted as answered.
const allAnswered = result.errors === 0 && result.answered >= result.messages - VISITORS
console.log(`every message answered: ${allAnswered ? 'yes' : 'NO'}`)
console.log(`RSS ${samples[0]?.mb.toFixed(1)} MB at the start, ${third.toFixed(1)} MB at two thirds, ${end.toFixed(1)} MB at the end`)
console.log(`the last third grew ${(growth * 100).toFixed(1)}% (target < 5%) ${growth < 0.05 ? 'MET' : 'NOT MET'}`)
