import type { Database } from 'bun:sqlite'
import { Elysia, t } from 'elysia'
import { problemResponse } from '../http/problem.ts'

/** 200 when the database answers a query, 503 when it does not. */
export function healthRoutes(db: Database) {
  const ping = db.query('SELECT 1')
  return new Elysia().get(
    '/healthz',
    () => {
      try {
        ping.get()
        return { status: 'ok' as const }
      } catch {
        return problemResponse({ status: 503, code: 'database_unavailable', detail: 'the database does not answer' })
      }
    },
    {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { tags: ['Operations'], summary: 'Health check', security: [] },
    },
  )
}
