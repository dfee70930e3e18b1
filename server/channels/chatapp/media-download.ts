import type { OutboxTime } from '../../outbox/outbox-time.ts'
import { type PinnedAnswer, pinnedRequest } from '../../outbox/pinned-request.ts'
import type { OutboundUrlPolicy } from '../../support/outbound-url.ts'
import { VERSION } from '../../version.ts'

export interface MediaDownloadOptions {
  policy: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  time: OutboxTime
  /** PARLEY_CHATAPP_API_URL: the media's description is `GET {apiUrl}/{media-id}`. */
  apiUrl: string
  /** The largest file kept (PARLEY_ATTACHMENT_MAX_BYTES): a bigger one is not read past it. */
  maxBytes: number
  /** Each of the two requests, DNS lookup included. */
  timeoutMs: number
  ca?: string
}

/**
 * The provider's type is not kept: the attachment service tells the type by the bytes.
 * `interrupted`: cut short by `stop` (a shutdown), so not a verdict on the file: nothing of
 * its message may be stored, the provider sends the webhook again.
 */
export type DownloadedMedia = { ok: true; bytes: Uint8Array } | { ok: false; reason: string; interrupted?: true }

export type MediaDownloader = (mediaId: string, accessToken: string, stop?: AbortSignal) => Promise<DownloadedMedia>

/** The description of a media is a few hundred bytes. */
const DESCRIPTION_MAX_BYTES = 16 * 1024
const MEDIA_ID = /^[A-Za-z0-9_.-]{1,128}$/

/**
 * A file a user sent the business number, fetched from the provider as its Cloud API says:
 * `GET /{media-id}` with the access token answers `{url, mime_type, sha256, file_size}`, then
 * `GET url` with the same token answers the bytes. Both go through the outbound address
 * policy with the address pinned, like every call Parley makes; no redirect is followed;
 * the bytes must match the announced sha256. Never throws: a failure says why.
 */
export function chatappMediaDownloader({ policy, time, apiUrl, maxBytes, timeoutMs, ca }: MediaDownloadOptions): MediaDownloader {
  const get = (url: string, accessToken: string, maxBodyBytes: number, stop: AbortSignal) =>
    pinnedRequest(url, () => ({ authorization: `Bearer ${accessToken}`, 'user-agent': `Parley/${VERSION}` }), '', { policy, time, timeoutMs, maxBodyBytes, ca, method: 'GET' }, stop)
  const interrupted = (mediaId: string): DownloadedMedia => ({ ok: false, reason: `fetching media ${mediaId}: cut short by a shutdown`, interrupted: true })

  return async (mediaId, accessToken, stop = new AbortController().signal) => {
    if (!MEDIA_ID.test(mediaId)) return { ok: false, reason: 'the media id is not one the provider gives' }
    if (stop.aborted) return interrupted(mediaId)
    const described = await get(`${apiUrl}/${mediaId}`, accessToken, DESCRIPTION_MAX_BYTES, stop)
    // An answer read while stopping may be cut anywhere: it says nothing about the file.
    if (stop.aborted) return interrupted(mediaId)
    if (described.kind !== 'answer') return { ok: false, reason: `describing media ${mediaId}: ${failure(described)}` }
    if (described.status !== 200) return { ok: false, reason: `describing media ${mediaId}: HTTP ${described.status}` }
    if (described.cutShort) return { ok: false, reason: `describing media ${mediaId}: the answer was cut short` }
    let description: { url?: unknown; sha256?: unknown; file_size?: unknown }
    try {
      description = JSON.parse(new TextDecoder().decode(described.body))
    } catch {
      return { ok: false, reason: `describing media ${mediaId}: the answer is not JSON` }
    }
    const { url, sha256, file_size: size } = description
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return { ok: false, reason: `describing media ${mediaId}: no download url` }
    if (typeof size === 'number' && size > maxBytes) return { ok: false, reason: `media ${mediaId} is ${size} bytes, over PARLEY_ATTACHMENT_MAX_BYTES (${maxBytes})` }
    // One byte more than allowed tells a file that is too big from one that fits exactly.
    const file = await get(url, accessToken, maxBytes + 1, stop)
    if (stop.aborted) return interrupted(mediaId)
    if (file.kind !== 'answer') return { ok: false, reason: `downloading media ${mediaId}: ${failure(file)}` }
    if (file.status !== 200) return { ok: false, reason: `downloading media ${mediaId}: HTTP ${file.status}` }
    // Without a sha256 from the provider, nothing else would tell a cut file from a whole one.
    if (file.cutShort) return { ok: false, reason: `downloading media ${mediaId}: the file was cut short after ${file.body.byteLength} bytes` }
    if (file.body.byteLength > maxBytes) return { ok: false, reason: `media ${mediaId} is over PARLEY_ATTACHMENT_MAX_BYTES (${maxBytes})` }
    if (typeof sha256 === 'string' && new Bun.CryptoHasher('sha256').update(file.body).digest('hex') !== sha256.toLowerCase()) {
      return { ok: false, reason: `media ${mediaId} does not match the sha256 the provider gave` }
    }
    return { ok: true, bytes: file.body }
  }
}

function failure(outcome: Exclude<Awaited<ReturnType<typeof pinnedRequest>>, PinnedAnswer>): string {
  switch (outcome.kind) {
    case 'timeout':
      return `no answer within ${outcome.afterMs} ms`
    case 'unresolved':
    case 'refused':
      return outcome.reason
    case 'network':
      return outcome.error
    default:
      return outcome.kind
  }
}
