import { afterAll, beforeAll } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledParley } from '../../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../../support/run-parley.ts'

/**
 * For a file of tests that the compiled executable carries what it serves: a copy of it in a
 * folder of its own, away from the build tree. `start` runs that copy from its folder (so no
 * relative path can reach back into the build tree); it is stopped and the folder removed after the tests.
 */
export function movedBinary() {
  const away = mkdtempSync(join(tmpdir(), 'parley-moved-'))
  const binary = join(away, 'parley')
  let server: RunningParley | undefined
  beforeAll(() => {
    copyFileSync(compiledParley(), binary)
  }, 120_000)
  afterAll(async () => {
    await server?.stop('SIGKILL')
    rmSync(away, { recursive: true, force: true })
  })
  const start = async (): Promise<RunningParley> => {
    const spawnedFrom = process.cwd()
    process.chdir(away)
    try {
      server = await runParley([binary], { PARLEY_DATA_DIR: join(away, 'data') })
      return server
    } finally {
      process.chdir(spawnedFrom)
    }
  }
  return { binary, start }
}
