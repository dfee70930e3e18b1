import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'

const root = new URL('../../', import.meta.url)
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines?: { node?: string } }
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> }
const readme = readFileSync(new URL('README.md', root), 'utf8')

/**
 * `npm install` on the Node the README asks for warns of nothing: every installed package's
 * declared `engines.node` accepts it, and so does Parley's own.
 */
describe('the Node version the README promises', () => {
  const promised = /Node\.js (\d+\.\d+) or newer/.exec(readme)?.[1]

  test('the README names it and package.json declares it', () => {
    expect(promised).toBeDefined()
    expect(pkg.engines?.node).toBe(`>=${promised}`)
  })

  test('every package in the lockfile accepts it (no EBADENGINE warning on a clean install)', () => {
    const oldest = `${promised}.0`
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !Bun.semver.satisfies(oldest, (entry.engines as { node: string }).node))
      .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs node ${(entry.engines as { node: string }).node}`)
    expect(refusing).toEqual([])
  })
})
