import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runParley } from '../support/run-parley.ts'

const root = join(import.meta.dir, '../..')
const work = mkdtempSync(join(tmpdir(), 'parley-checkout-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/**
 * Started from a checkout (`npm start` runs the sources), Parley suggests `npm run parley --`
 * for its other commands, and that command works there: the first admin's new link is one
 * `npm run parley -- users create ...` away, not a `parley` that does not exist.
 */
describe('the parley command from a checkout', () => {
  test('the first start suggests the npm script, and the npm script runs the CLI on the same data', async () => {
    const env = { PARLEY_DATA_DIR: join(work, 'data'), PARLEY_PUBLIC_URL: 'http://localhost:3999' }
    const server = await runParley([process.execPath, join(root, 'server/main.ts')], env)
    const banner = server.output()
    await server.stop('SIGTERM')
    expect(banner).toContain('`npm run parley -- users create --email E --name N --role admin` prints a new link.')
    expect(banner).toContain('Make more with `npm run parley -- keys create --name NAME`.')

    const npm = (args: string[]) => Bun.spawnSync(['npm', 'run', '--silent', 'parley', '--', ...args], { cwd: root, env: { ...process.env, ...env } })
    const created = npm(['users', 'create', '--email', 'ada@acme.test', '--name', 'Ada', '--role', 'admin'])
    expect(created.exitCode).toBe(0)
    expect(created.stdout.toString().trim().split('\n').at(-1)).toMatch(/^http:\/\/localhost:3999\/app\/invite#token=pt_[0-9A-Za-z]{40}$/)
  }, 60_000)
})
