import type { TestApp } from '../../support/test-app.ts'
import { DESK } from './desk-context.ts'

/**
 * POSTs a file's raw bytes to the desk's attachments route, as the desk does: with the API key,
 * or with `headers` instead (a session's cookie and Origin). The answer's body parsed, if any.
 */
export async function deskUpload(
  app: Pick<TestApp, 'fetch' | 'key'>,
  conversationId: string,
  bytes: Uint8Array,
  options: { filename?: string; headers?: Record<string, string>; contentType?: string } = {},
) {
  const query = options.filename === undefined ? '' : `?filename=${encodeURIComponent(options.filename)}`
  const headers: Record<string, string> = options.headers ?? { authorization: `Bearer ${app.key}` }
  const response = await app.fetch(
    new Request(`http://localhost${DESK}/conversations/${conversationId}/attachments${query}`, {
      method: 'POST',
      headers: { 'content-type': options.contentType ?? 'application/octet-stream', ...headers },
      body: bytes as Uint8Array<ArrayBuffer>,
    }),
  )
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined }
}
