import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'

const root = join(import.meta.dir, '../..')

/**
 * bench:soak, shortened to a smoke test of what it does (never of how fast): visitors chat and
 * reload their tabs as returning visitors, every message is answered, and the server's memory
 * is sampled and judged. The 30-minute run is `npm run bench:soak`.
 */
describe('bench:soak, a short run', () => {
  test('visitors chat and come back, every message is answered, and the memory is sampled and judged', async () => {
    const soak = Bun.spawn([process.execPath, 'scripts/bench/soak.ts'], {
      cwd: root,
      env: { ...process.env, BENCH_SOAK_MINUTES: '0.08', BENCH_SOAK_VISITORS: '10', BENCH_SOAK_PACE_MS: '100', BENCH_SOAK_RECONNECT: '4' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [output, errors, code] = await Promise.all([new Response(soak.stdout).text(), new Response(soak.stderr).text(), soak.exited])
    if (code !== 0) throw new Error(`bench:soak exited with ${code}:\n${errors}\n${output}`)
    const counts = /messages (\d+), answered (\d+), refused or lost (\d+), reloads (\d+)/.exec(output)
    expect(counts).not.toBeNull()
    const [messages, answered, lost, reloads] = (counts as RegExpExecArray).slice(1).map(Number) as [number, number, number, number]
    expect(messages).toBeGreaterThan(20)
    expect(lost).toBe(0)
    expect(answered).toBeGreaterThanOrEqual(messages - 10)
    expect(reloads).toBeGreaterThan(0)
    expect(output).toContain('every message answered: yes')
    expect(output.match(/RSS \d+\.\d MB$/gm)?.length ?? 0).toBeGreaterThan(5)
    expect(output).toMatch(/the last third grew -?\d+\.\d% \(target < 5%\) (MET|NOT MET)/)
  }, 60_000)
})
