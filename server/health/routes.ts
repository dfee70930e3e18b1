import type { Database } from 'bun:sqlite'
import { Elysia, t } from 'elysia'
import { problemResponse } from '../http/problem.ts'

/**
 * /healthz: liveness, 200 while the process serves (a restart is the cure when it does not);
 * /readyz: 200 when the database answers a query, 503 when it does not (send no traffic).
 */
export function healthRoutes(db: Database) {
  const ping = db.query('SELECT 1')
  return new Elysia()
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { tags: ['Operations'], summary: 'Liveness', description: 'Answers 200 while the process serves requests; it does not look at the database (see /readyz).', security: [] },
    })
    .get(
      '/readyz',
      () => {
        try {
          ping.get()
          return { status: 'ready' as const }
        } catch {
          return problemResponse({ status: 503, code: 'database_unavailable', detail: 'the database does not answer' })
        }
      },
      {
        response: { 200: t.Object({ status: t.Literal('ready') }) },
        detail: { tags: ['Operations'], summary: 'Readiness', description: 'Answers 200 when the database answers a query, 503 (`database_unavailable`) when it does not.', security: [] },
      },
    )
}
