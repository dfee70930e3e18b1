import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { runParley } from '../support/run-parley.ts'

/**
 * deploy/parley.service, checked as far as a machine without systemd running can: systemd's
 * own parser and its offline security review on the shipped file (only the binary's path
 * changed, as verify insists the executable exists), its settings read as systemd reads them,
 * and the stop it relies on: SIGTERM ends `parley serve` cleanly with exit 0 (Restart=on-failure
 * leaves it stopped), a kill does not (restarted).
 */
const unitText = readFileSync(join(import.meta.dir, '../../deploy/parley.service'), 'utf8')
const work = mkdtempSync(join(tmpdir(), 'parley-unit-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const hasSystemdAnalyze = Bun.which('systemd-analyze') !== null

/** The unit's settings, each key with its values in order (a key may be given more than once). */
function settings(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const line of unitText.split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim())
    if (match) found.set(match[1] as string, [...(found.get(match[1] as string) ?? []), match[2] as string])
  }
  return found
}

function shippedUnitAt(binary: string): string {
  if (!unitText.includes('ExecStart=/usr/local/bin/parley serve')) throw new Error('deploy/parley.service no longer starts /usr/local/bin/parley serve: update this test')
  const file = join(work, 'parley.service')
  writeFileSync(file, unitText.replace('ExecStart=/usr/local/bin/parley serve', `ExecStart=${binary} serve`))
  return file
}

describe('deploy/parley.service', () => {
  test.skipIf(!hasSystemdAnalyze)('systemd-analyze verify finds nothing to say about it', () => {
    const checked = Bun.spawnSync(['systemd-analyze', 'verify', shippedUnitAt(compiledParley())])
    expect(`${checked.stdout}${checked.stderr}`).toBe('')
    expect(checked.exitCode).toBe(0)
  })

  test.skipIf(!hasSystemdAnalyze)("systemd's offline security review rates it OK", () => {
    const review = Bun.spawnSync(['systemd-analyze', 'security', '--offline=true', '--no-pager', shippedUnitAt(compiledParley())])
    const exposure = /Overall exposure level for parley\.service: ([\d.]+) (\w+)/.exec(review.stdout.toString())
    expect(exposure?.[2]).toBe('OK')
    expect(Number(exposure?.[1])).toBeLessThanOrEqual(2)
  })

  test('its own user, restart on failure, a graceful stop, and Parley behind the proxy on 127.0.0.1', () => {
    const unit = settings()
    const environment = Object.fromEntries((unit.get('Environment') ?? []).flatMap((line) => line.split(' ').map((pair) => pair.split('=') as [string, string])))
    expect(unit.get('User')).toEqual(['parley'])
    expect(unit.get('Restart')).toEqual(['on-failure'])
    expect(unit.get('KillSignal')).toEqual(['SIGTERM'])
    expect(unit.get('TimeoutStopSec')).toEqual(['30s'])
    expect(environment).toMatchObject({ HOST: '127.0.0.1', PORT: '3000', PARLEY_DATA_DIR: '/var/lib/parley', PARLEY_TRUSTED_PROXIES: '127.0.0.1,::1' })
    for (const [key, value] of Object.entries({ NoNewPrivileges: 'yes', ProtectSystem: 'strict', ProtectHome: 'yes', PrivateTmp: 'yes', PrivateDevices: 'yes', CapabilityBoundingSet: '', StateDirectory: 'parley', UMask: '0077' })) {
      expect([key, unit.get(key)]).toEqual([key, [value]])
    }
  })

  test("parley serve with the unit's environment stops cleanly on SIGTERM (exit 0) and is restarted only after a kill", async () => {
    const environment = Object.fromEntries(
      (settings().get('Environment') ?? []).flatMap((line) => line.split(' ').map((pair) => pair.replaceAll('/var/lib/parley', join(work, 'state')).split('=') as [string, string])),
    )
    const clean = await runParley([compiledParley()], { ...environment, PORT: '0' })
    expect(await clean.stop('SIGTERM')).toBe(0)
    expect(clean.output()).toContain('"msg":"stopped"')
    const killed = await runParley([compiledParley()], { ...environment, PORT: '0' })
    expect(await killed.stop('SIGKILL')).not.toBe(0)
  }, 30_000)
})
