import { Elysia, t } from 'elysia'
import { MEDIA_TYPE, openApiDocument } from '../http/openapi.ts'
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
      { response: { 200: t.Object({}, { description: 'an OpenAPI 3.1 document' }) }, detail: { ...detail, summary: 'This OpenAPI 3.1 document' } },
    )
    .get('/reference', () => new Response(referencePage, { headers: { 'content-type': 'text/html; charset=utf-8' } }), {
      response: { 200: t.String({ [MEDIA_TYPE]: 'text/html' }) },
      detail: { ...detail, summary: 'The API reference page (HTML)' },
    })
}
