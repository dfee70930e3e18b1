import { Elysia, t } from 'elysia'
import { ApiError } from '../http/api-error.ts'
import type { OperationsStore } from './store.ts'

/**
 * /healthz: liveness, 200 while the process serves (a restart is the cure when it does not);
 * /readyz: 200 when the database answers a query, 503 when it does not (send no traffic).
 */
export function healthRoutes(store: Pick<OperationsStore, 'ping'>) {
  return new Elysia()
    .get('/healthz', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { tags: ['Operations'], summary: 'Liveness', description: 'Answers 200 while the process serves requests; it does not look at the database (see /readyz).', security: [] },
    })
    .get(
      '/readyz',
      async () => {
        try {
          await store.ping()
        } catch {
          throw new ApiError(503, 'database_unavailable', 'the database does not answer')
        }
        return { status: 'ready' as const }
      },
      {
        response: { 200: t.Object({ status: t.Literal('ready') }) },
        detail: { tags: ['Operations'], summary: 'Readiness', description: 'Answers 200 when the database answers a query, 503 (`database_unavailable`) when it does not.', security: [] },
      },
    )
}
