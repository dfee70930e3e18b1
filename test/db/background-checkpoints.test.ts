import { afterEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BackgroundCheckpointOptions, backgroundCheckpoints } from '../../server/db/background-checkpoints.ts'
import { openDatabase } from '../../server/db/open-database.ts'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { CHECKPOINT_WORKER_URL } from '../../server/threads.ts'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function database() {
  const dir = mkdtempSync(join(tmpdir(), 'parley-checkpoints-'))
  const file = join(dir, 'parley.db')
  const db = openDatabase(file)
  db.exec('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)')
  cleanups.push(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const sink = memorySink()
  return { db, file, sink, logger: createLogger('debug', sink) }
}

function start(setup: ReturnType<typeof database>, options: Partial<BackgroundCheckpointOptions> = {}) {
  const checkpoints = backgroundCheckpoints(setup.db, { file: setup.file, workerUrl: CHECKPOINT_WORKER_URL, logger: setup.logger, intervalMs: 5, ...options })
  cleanups.push(() => checkpoints.stop())
  return checkpoints
}

/** Generous: a worker thread starts slowly on a loaded machine; the test asks what happens, not how fast. */
async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = performance.now() + ms
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(5)
  }
}

const logged = (setup: ReturnType<typeof database>, message: string) => () => setup.sink.lines.some((line) => line.includes(`"msg":"${message}"`))
const autocheckpoint = (setup: ReturnType<typeof database>) => setup.db.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()?.wal_autocheckpoint
const fourKilobytes = () => crypto.getRandomValues(new Uint8Array(4096))

setDefaultTimeout(60_000)

describe('background checkpoints', () => {
  test('once the thread is ready the serving connection checkpoints only past the restart size, and as SQLite does after stop', async () => {
    const setup = database()
    const checkpoints = start(setup)
    await until(logged(setup, 'background checkpoints on'), 'the thread')
    expect(autocheckpoint(setup)).toBe(4000)
    await checkpoints.stop()
    expect(autocheckpoint(setup)).toBe(1000)
  })

  test('what the serving connection writes reaches the database file, copied by the thread', async () => {
    const setup = database()
    start(setup)
    await until(logged(setup, 'background checkpoints on'), 'the thread')
    const before = statSync(setup.file).size
    const insert = setup.db.query('INSERT INTO blobs (body) VALUES (?)')
    setup.db.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run(fourKilobytes())
    })()
    await until(() => statSync(setup.file).size > before + 1_000_000, 'the rows to reach the database file')
  })

  test('a log past its restart size starts over while a writer keeps writing, instead of growing', async () => {
    const setup = database()
    start(setup, { restartFrames: 100 })
    await until(logged(setup, 'background checkpoints on'), 'the thread')
    const batch = writeBatcher(setup.db, (error) => {
      throw error
    })
    const insert = setup.db.query('INSERT INTO blobs (body) VALUES (?)')
    // An amount of writing, not a span of time: a loaded machine writes less per second.
    const toWrite = 24_000_000
    let written = 0
    while (written < toWrite) {
      batch.run(() => {
        for (let i = 0; i < 10; i++) insert.run(fourKilobytes())
      })
      written += 10 * 4096
      await new Promise((resolve) => setImmediate(resolve))
    }
    batch.flush()
    const wal = statSync(`${setup.file}-wal`).size
    // A log that never started over would hold all 24 MB; a starved checkpoint thread (a loaded
    // machine) lets it reach a third of that before it catches up.
    expect(wal).toBeLessThan(written / 2)
  })

  test('an idle database is not checkpointed again: a pass is asked for only after a write', async () => {
    const setup = database()
    const checkpoints = start(setup)
    await until(logged(setup, 'background checkpoints on'), 'the thread')
    setup.db.query('INSERT INTO blobs (body) VALUES (?)').run(fourKilobytes())
    await until(() => checkpoints.passes() > 0, 'a pass after the write')
    // Caught up: a whole pass found nothing more to copy. Then 40 intervals of nothing written.
    let settled = checkpoints.passes()
    await until(() => {
      const now = checkpoints.passes()
      const same = now === settled
      settled = now
      return same
    }, 'the passes to stop')
    await Bun.sleep(200)
    expect(checkpoints.passes()).toBe(settled)
    setup.db.query('INSERT INTO blobs (body) VALUES (?)').run(fourKilobytes())
    await until(() => checkpoints.passes() > settled, 'a pass after the next write')
  })

  test('a thread that cannot start leaves SQLite checkpointing automatically', async () => {
    const setup = database()
    start(setup, { workerUrl: new URL('./no-such-worker.ts', import.meta.url).href })
    await until(logged(setup, 'background checkpoints stopped'), 'the failure to be logged')
    expect(logged(setup, 'background checkpoints on')()).toBe(false)
    expect(autocheckpoint(setup)).toBe(1000)
  })

  test('a thread that fails after it started hands checkpoints back to SQLite', async () => {
    const setup = database()
    start(setup, { workerUrl: new URL('../fixtures/checkpoint-worker-that-fails.ts', import.meta.url).href })
    await until(logged(setup, 'background checkpoints on'), 'the thread')
    expect(autocheckpoint(setup)).toBe(4000)
    await until(logged(setup, 'background checkpoints stopped'), 'the failure to be logged')
    expect(autocheckpoint(setup)).toBe(1000)
  })
})
