import { Elysia } from 'elysia'
import { openApiDocument } from '../http/openapi.ts'
import { referencePage } from '../http/reference-page.ts'
import { VERSION } from '../version.ts'

const detail = { tags: ['Reference'], security: [] }

/** The OpenAPI document, built once from the finished app's routes, and its reference page. */
export function docsRoutes(routes: () => Parameters<typeof openApiDocument>[0], publicUrl: string) {
  let document: string | undefined
  return new Elysia({ prefix: '/api/dev/v1' })
    .get(
      '/openapi.json',
      () => {
        document ??= JSON.stringify(openApiDocument(routes(), { version: VERSION, serverUrl: publicUrl }))
        return new Response(document, { headers: { 'content-type': 'application/json' } })
      },
      { detail: { ...detail, summary: 'This OpenAPI 3.1 document' } },
    )
    .get('/reference', () => new Response(referencePage, { headers: { 'content-type': 'text/html; charset=utf-8' } }), {
      detail: { ...detail, summary: 'The API reference page (HTML)' },
    })
}
