import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type CallOptions, type CallResult, type TestApp, testApp } from './test-app.ts'

export interface Scenario<C> {
  name: string
  method: string
  path: string | ((ctx: C) => string)
  body?: unknown | ((ctx: C) => unknown)
  rawBody?: string
  /** A function picks headers from the context (a session cookie made in setup, say). */
  headers?: Record<string, string> | ((ctx: C) => Record<string, string>)
  /** `null` sends no Authorization header; a function picks a key from the context. */
  key?: string | null | ((ctx: C) => string | null)
  status: number
  /** problem+json `code` expected on an error answer. */
  code?: string
  /** Exact JSON Pointers expected in `errors[].path`. */
  errorPaths?: string[]
  check?: (result: CallResult, ctx: C) => void | Promise<void>
  /**
   * Why this row can only run against the app in this process (its check listens to the
   * event bus, say); every other row also runs against the compiled binary.
   */
  inProcessOnly?: string
}

/** A row may sign in with argon2id several times; on a loaded machine that takes seconds. */
const ROW_TIMEOUT_MS = 30_000

/**
 * Assertions about what the app announced on its event bus, which lives inside the process:
 * they run for the in-process app, and the rest of the row still runs against the binary.
 */
export function announcedInProcess(app: TestApp, assert: () => void): void {
  if (app.target() === 'source') assert()
}

/**
 * Table-driven API scenarios against one fresh database: each row states a request and the
 * status, problem code, error paths and body it must get. Every table runs twice: against the
 * app in this process, and against the compiled `dist/parley` serving a database set up the
 * same way, so the release build cannot quietly answer otherwise than the source.
 */
export function scenarios<C>(title: string, setup: (app: TestApp) => Promise<C> | C, rows: Scenario<C>[], env?: Record<string, string>) {
  scenarioTable(title, setup, rows, env, 'source')
  scenarioTable(`${title} [compiled binary]`, setup, rows, env, 'binary')
}

function scenarioTable<C>(
  title: string,
  setup: (app: TestApp) => Promise<C> | C,
  rows: Scenario<C>[],
  env: Record<string, string> | undefined,
  target: 'source' | 'binary',
) {
  describe(title, () => {
    let app: TestApp
    let ctx: C
    beforeAll(async () => {
      app = testApp(env)
      ctx = await setup(app)
      if (target === 'binary') await app.serveFromBinary()
    }, 30_000)
    afterAll(() => app.close())

    for (const row of rows) {
      if (target === 'binary' && row.inProcessOnly) continue
      test(row.name, async () => {
        const resolve = <T>(value: T | ((c: C) => T)) => (typeof value === 'function' ? (value as (c: C) => T)(ctx) : value)
        const options: CallOptions = { headers: resolve(row.headers), rawBody: row.rawBody }
        if (row.body !== undefined) options.body = resolve(row.body)
        if (row.key !== undefined) options.key = resolve(row.key)
        const result = await app.call(row.method, resolve(row.path), options)
        expect({ status: result.status, body: result.body }).toMatchObject({ status: row.status })
        if (row.status >= 400) {
          expect(result.headers.get('content-type')).toBe('application/problem+json')
          // Plain checks: toMatchObject with asymmetric matchers would write them into `body`.
          expect(result.body.status).toBe(row.status)
          expect(typeof result.body.title).toBe('string')
          expect(typeof result.body.detail).toBe('string')
        }
        if (row.code) expect(result.body.code).toBe(row.code)
        if (row.errorPaths) expect(result.body.errors.map((e: { path: string }) => e.path)).toEqual(row.errorPaths)
        await row.check?.(result, ctx)
      }, ROW_TIMEOUT_MS)
    }
  })
}
