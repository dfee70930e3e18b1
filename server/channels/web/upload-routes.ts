import { Elysia, t } from 'elysia'
import { errorResponses } from '../../http/error-responses.ts'
import { fileBytes } from '../../http/json-body.ts'
import { UPLOAD_PATH, UploadAnswer } from '../../protocol/widget-protocol.ts'
import { type TeamPageCheck, teamPageOf } from './admit-widget.ts'
import type { UploadCredentials, WebUploads } from './upload-service.ts'

/** Who sends an upload, from its head: read before the body, and again by the route. */
export function uploadCredentials(request: Request, isTeamPage?: TeamPageCheck): UploadCredentials {
  return {
    origin: request.headers.get('origin'),
    widgetKey: new URL(request.url).searchParams.get('key') ?? '',
    authorization: request.headers.get('authorization'),
    isTeamPage: teamPageOf(request, isTeamPage),
  }
}

/**
 * POST /widget/v1/attachments: a visitor's file, the raw bytes as the body (any Content-Type;
 * the type is told by the bytes), sent by the widget with its socket's upload token. OPTIONS:
 * the CORS preflight, answered only for the integration's allowed pages. The body is read by
 * the app's parser (raw, bounded by PARLEY_ATTACHMENT_MAX_BYTES) once the token is checked.
 */
export function webUploadRoutes(uploads: WebUploads, isTeamPage?: TeamPageCheck) {
  const credentials = (request: Request) => uploadCredentials(request, isTeamPage)
  return new Elysia()
    .options(UPLOAD_PATH, async ({ request }) => new Response(null, { status: 204, headers: await uploads.preflight(credentials(request)) }), {
      detail: { tags: ['Widget'], summary: "CORS preflight of a visitor's upload", security: [] },
    })
    .post(
      UPLOAD_PATH,
      async ({ request, body, query, set }) => {
        const answer = await uploads.receive(credentials(request), {
          clientId: query.client_id ?? null,
          filename: query.filename ?? null,
          bytes: fileBytes(body),
        })
        set.status = answer.status
        Object.assign(set.headers, answer.headers)
        return { message: answer.message }
      },
      {
        query: t.Object({
          key: t.Optional(t.String({ description: 'the widget key' })),
          client_id: t.Optional(t.String({ description: "the widget's id for this message (1-64 of A-Z a-z 0-9 _ -): a resend is not stored twice" })),
          filename: t.Optional(t.String({ description: "the file's name, shown to agents; made safe and given the extension of its real type" })),
        }),
        response: { 200: UploadAnswer, 201: UploadAnswer, ...errorResponses(400, 403, 404, 413, 415, 422) },
        detail: {
          tags: ['Widget'],
          summary: "A visitor's file (picture or PDF)",
          description:
            "The file's bytes as the body, `Authorization: Bearer <upload_token>` from the socket's welcome. PNG, JPEG, GIF, WebP and PDF only, told by the bytes (415 `attachment_type_refused` otherwise); at most PARLEY_ATTACHMENT_MAX_BYTES (413 `attachment_too_large`). Stores the visitor's media message (201; 200 with the first copy for a resend of the same client_id), which the socket then delivers like a text's echo.",
          security: [],
        },
      },
    )
}
