import { Elysia, t } from 'elysia'
import { errorResponses } from '../http/error-responses.ts'
import { perAddressLimit } from '../http/per-address-limit.ts'
import { ATTACHMENT_TYPES, type AttachmentRecord } from './model.ts'
import type { AttachmentService } from './service.ts'

/** A day: a file never changes under its address, and `private` keeps shared caches out. */
const CACHE_CONTROL = 'private, max-age=86400'

/** The headers a stored file is served with: never run, never sniffed, pictures shown, PDFs downloaded. */
export function attachmentHeaders(attachment: AttachmentRecord): Record<string, string> {
  const disposition = ATTACHMENT_TYPES[attachment.content_type].kind === 'image' ? 'inline' : 'attachment'
  return {
    'content-type': attachment.content_type,
    'x-content-type-options': 'nosniff',
    // Opened on its own, the file runs nothing and reaches nothing, even if a browser misreads it.
    'content-security-policy': "default-src 'none'; sandbox",
    'content-disposition': contentDisposition(disposition, attachment.filename),
    // The widget shows pictures on customers' pages, another origin.
    'cross-origin-resource-policy': 'cross-origin',
    'cache-control': CACHE_CONTROL,
    etag: `"${attachment.sha256}"`,
  }
}

/** RFC 6266: an ASCII fallback, and the exact name in RFC 5987 encoding. */
function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`
}

/**
 * GET /attachments/{id}/{key}/{filename}: a file sent in a conversation. The address is the
 * permission (the message that shows the file carries it, to the visitor, the desk and the
 * channels' receivers); an unknown id and a wrong key both answer 404. The file name is only
 * for the browser's save dialog.
 */
export function attachmentRoutes(attachments: AttachmentService, perMinutePerAddress: number) {
  return new Elysia().use(perAddressLimit(perMinutePerAddress)).get(
    '/attachments/:id/:key/:filename',
    async ({ params, request }) => {
      const { attachment, bytes } = await attachments.open(params.id, params.key)
      const headers = attachmentHeaders(attachment)
      if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers: { etag: headers.etag as string, 'cache-control': CACHE_CONTROL } })
      return new Response(bytes, { headers })
    },
    {
      params: t.Object({ id: t.String(), key: t.String(), filename: t.String() }),
      response: { 200: t.Any({ description: 'the file, as the type it was recognised as (PNG, JPEG, GIF, WebP or PDF)' }), ...errorResponses(404) },
      detail: {
        tags: ['Attachments'],
        summary: 'A file sent in a conversation',
        description:
          "The address comes in a `media` message's `url`; the random key in it is the permission to read the file. Pictures are served inline, PDFs as downloads, with `nosniff`, a sandboxing Content-Security-Policy and an ETag.",
        security: [],
      },
    },
  )
}
