import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { notFound } from '../http/api-error.ts'
import { errorResponses } from '../http/error-responses.ts'
import { ApiKey, ApiKeyList, ApiKeyParams, CreateApiKey, CreatedApiKey } from './key-model.ts'
import type { KeySummary, WorkspaceService } from './service.ts'

const tags = ['API keys']

/** The workspace's API keys: listed, made (shown once) and revoked; admins only, an `agent` may not even list them. */
export function apiKeyRoutes(auth: Authenticate, workspaces: WorkspaceService) {
  const view = ({ prefix, name, created_at, revoked_at, last_used_at }: KeySummary) => ({ prefix, name, created_at, revoked_at, last_used_at })
  return new Elysia({ prefix: '/api-keys' })
    .use(auth)
    .get(
      '/',
      async ({ workspaceId }) => {
        const items = (await workspaces.keysOf(workspaceId)).map(view)
        return { items, total: items.length }
      },
      {
        response: { 200: ApiKeyList, ...errorResponses(403) },
        detail: { tags, summary: 'List API keys', description: "This workspace's keys, newest first, revoked ones included. Never the keys themselves." },
      },
    )
    .post(
      '/',
      async ({ workspaceId, body, status }) => {
        const created = await workspaces.issueKey(workspaceId, body.name)
        const summary = (await workspaces.keysOf(workspaceId)).find((key) => key.prefix === created.prefix) as KeySummary
        return status(201, { ...view(summary), key: created.key })
      },
      {
        body: CreateApiKey,
        response: { 201: CreatedApiKey, ...errorResponses(400, 403, 413, 415, 422) },
        detail: { tags, summary: 'Create an API key', description: 'The answer carries the key this once; Parley stores only its SHA-256 hash.' },
      },
    )
    .delete(
      '/:prefix',
      async ({ workspaceId, params }) => {
        const revoked = await workspaces.revokeKeyOf(workspaceId, params.prefix)
        if (!revoked) throw notFound('API key')
        return view(revoked)
      },
      {
        params: ApiKeyParams,
        response: { 200: ApiKey, ...errorResponses(403, 404) },
        detail: {
          tags,
          summary: 'Revoke an API key',
          description: 'Refused from the next request on (within a second on every server process). Revoking a revoked key answers it as it is. The record stays, to show it was revoked.',
        },
      },
    )
}
