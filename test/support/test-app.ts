import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type AppDeps, createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { closeDatabase } from '../../server/db/open-database.ts'
import { logRing, ringedSink } from '../../server/operations/log-ring.ts'
import { createLogger, memorySink } from '../../server/support/logger.ts'
import { compiledParley } from './compiled-parley.ts'
import { migratedDatabase } from './migrated-database.ts'
import { type RunningParley, runParley } from './run-parley.ts'
import { seededApiKey } from './seeded-api-key.ts'
import { TEST_PASSWORD_HASHING } from './test-password-hashing.ts'

export interface CallOptions {
  body?: unknown
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string
  key?: string | null
  headers?: Record<string, string>
}

export interface CallResult {
  status: number
  headers: Headers
  body: any
  text: string
}

/**
 * A fresh Parley over a real SQLite file in a temporary directory, called in-process.
 * Each call carries the first workspace's API key unless told otherwise.
 */
export function testApp(env: Record<string, string> = {}, tuning: AppDeps['tuning'] = {}, now?: AppDeps['now']) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-test-'))
  // Public routes' per-address limit is off unless a test turns it on: in-process calls share one address.
  // Password hashes at the smallest argon2id cost (a test file signs in hundreds of times); a test
  // about the cost itself passes PARLEY_TEST_PASSWORD_HASHING: '' (test/people/password-cost.test.ts).
  const environment = { PARLEY_DATA_DIR: dir, PARLEY_PUBLIC_URL: 'http://parley.test', PARLEY_PUBLIC_RATE_LIMIT: '0', ...TEST_PASSWORD_HASHING, ...env }
  const config = loadConfig(environment)
  const db = migratedDatabase(join(dir, 'parley.db'))
  const sink = memorySink()
  // As serve.ts does: the operations page shows the ring's lines.
  const recentLogs = logRing()
  const app = createApp({ db, config, logger: createLogger('debug', ringedSink(sink, recentLogs)), recentLogs, tuning, now })
  const { key, workspaceId } = seededApiKey(db, 'test')
  let appClosed = false
  let binary: RunningParley | null = null
  let send = (request: Request) => app.fetch(request)

  async function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = { ...options.headers }
    const usedKey = options.key === undefined ? key : options.key
    if (usedKey) headers.authorization ??= `Bearer ${usedKey}`
    let body: string | undefined = options.rawBody
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const response = await send(new Request(`http://localhost${path}`, { method, headers, body }))
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed, text }
  }

  async function closeApp() {
    if (appClosed) return
    appClosed = true
    await app.close()
  }

  return {
    ...app,
    db,
    dir,
    config,
    key,
    /** The workspace `key` opens. */
    workspaceId,
    logLines: sink.lines,
    call,
    /** Where calls go: the app in this process, or the compiled binary once `serveFromBinary` ran. */
    target: () => (binary ? 'binary' : 'source') as 'source' | 'binary',
    /** The binary's http://127.0.0.1:PORT once `serveFromBinary` ran (for a browser to load the widget from). */
    binaryUrl: () => binary?.url ?? null,
    /**
     * Hands this database to the compiled `dist/parley` with the same configuration: the app in
     * this process stops, and from now on `call` goes over HTTP to the binary and `logLines`
     * holds the binary's log lines. What a test set up stays; the two builds must then answer
     * alike, which is how a difference between source and binary shows.
     */
    async serveFromBinary() {
      await closeApp()
      sink.lines.length = 0
      binary = await runParley([compiledParley()], { ...environment, LOG_LEVEL: 'debug' }, (text) => void sink.lines.push(text))
      const origin = binary.url
      send = (request) => {
        const url = new URL(request.url)
        return fetch(`${origin}${url.pathname}${url.search}`, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          redirect: 'manual',
          decompress: false,
        } as RequestInit)
      }
    },
    /** An API key for a second, separate workspace. */
    otherWorkspaceKey: () => seededApiKey(db, 'other', { newWorkspace: true }).key,
    /** Releases what the app holds open (sockets, workers) and keeps its database open. */
    stopApp: closeApp,
    /** Releases what the app (or the binary serving it) holds open, then removes its database. */
    async close() {
      await binary?.stop('SIGTERM')
      await closeApp()
      closeDatabase(db)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export type TestApp = ReturnType<typeof testApp>
