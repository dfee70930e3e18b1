import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type CallOptions, type CallResult, type TestApp, testApp } from './test-app.ts'

export interface Scenario<C> {
  name: string
  method: string
  path: string | ((ctx: C) => string)
  body?: unknown | ((ctx: C) => unknown)
  rawBody?: string
  headers?: Record<string, string>
  /** `null` sends no Authorization header; a function picks a key from the context. */
  key?: string | null | ((ctx: C) => string | null)
  status: number
  /** problem+json `code` expected on an error answer. */
  code?: string
  /** Exact JSON Pointers expected in `errors[].path`. */
  errorPaths?: string[]
  check?: (result: CallResult, ctx: C) => void | Promise<void>
}

/**
 * Table-driven API scenarios against one fresh database: each row states a request and the
 * status, problem code, error paths and body it must get.
 */
export function scenarios<C>(title: string, setup: (app: TestApp) => Promise<C> | C, rows: Scenario<C>[], env?: Record<string, string>) {
  describe(title, () => {
    let app: TestApp
    let ctx: C
    beforeAll(async () => {
      app = testApp(env)
      ctx = await setup(app)
    })
    afterAll(() => app.close())

    for (const row of rows) {
      test(row.name, async () => {
        const resolve = <T>(value: T | ((c: C) => T)) => (typeof value === 'function' ? (value as (c: C) => T)(ctx) : value)
        const options: CallOptions = { headers: row.headers, rawBody: row.rawBody }
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
      })
    }
  })
}
