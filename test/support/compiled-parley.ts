import { join } from 'node:path'

const root = join(import.meta.dir, '../..')

/** Where `npm run build` puts the executable users run. */
export const compiledParleyPath = join(root, 'dist/parley')

let built = false

/**
 * The compiled `dist/parley`, built from the current sources once per test process, so a test
 * that talks to the binary always sees this tree's code (a stale build would hide a difference
 * between source and binary). `npm test` builds it before the run and says so in the
 * environment, so the files that use it share that one build.
 */
export function compiledParley(): string {
  if (built || process.env.PARLEY_TEST_BINARY_BUILT === '1') return compiledParleyPath
  const build = Bun.spawnSync([process.execPath, join(root, 'scripts/build.ts')], { cwd: root })
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr}`)
  built = true
  return compiledParleyPath
}
