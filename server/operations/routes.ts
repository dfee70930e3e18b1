import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { errorResponses } from '../http/error-responses.ts'
import { OperationsStatus, RecentLogs } from './model.ts'
import type { OperationsService } from './service.ts'

const tags = ['Operations']
const WHO = "Admins (and API keys) of the installation's own workspace, the one the first start created; any other workspace gets 404, an `agent` 403."

export function operationsRoutes(auth: Authenticate, operations: OperationsService) {
  return new Elysia({ prefix: '/operations' })
    .use(auth)
    .get('/', ({ workspaceId }) => operations.status(workspaceId), {
      response: { 200: OperationsStatus, ...errorResponses(403, 404) },
      detail: { tags, summary: 'The running installation', description: `Version, uptime, database size and the scheduled backups. ${WHO}` },
    })
    .get('/logs', ({ workspaceId }) => operations.logs(workspaceId), {
      response: { 200: RecentLogs, ...errorResponses(403, 404) },
      detail: {
        tags,
        summary: 'The latest log lines',
        description: `The last 200 lines the server logged since it started, kept in memory. Log lines never hold secrets (keys, tokens, passwords, cookies). ${WHO}`,
      },
    })
    .get(
      '/backup',
      async ({ workspaceId }) => {
        const file = await operations.backup(workspaceId)
        return new Response(file.stream, {
          headers: {
            'content-type': 'application/vnd.sqlite3',
            'content-length': String(file.bytes),
            'content-disposition': `attachment; filename="${file.name}"`,
            'cache-control': 'no-store',
          },
        })
      },
      {
        response: { 200: t.Any({ description: 'the SQLite database file' }), ...errorResponses(403, 404) },
        detail: {
          tags,
          summary: 'Download a backup',
          description: `A consistent copy of the whole database, as \`parley backup\` writes it (VACUUM INTO, safe while the server runs, in a thread of its own), integrity-checked before it is sent; restore it with \`parley restore FILE\`. ${WHO}`,
        },
      },
    )
}
