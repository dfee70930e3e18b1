import { afterAll, describe, expect, test } from 'bun:test'
import { chatappMediaDownloader } from '../../../server/channels/chatapp/media-download.ts'
import { systemOutboxTime } from '../../../server/outbox/outbox-time.ts'
import { outboundUrlPolicy } from '../../../server/support/outbound-url.ts'
import { SAMPLE } from '../../attachments/sample-files.ts'

const MAX_BYTES = 1024
const TOKEN = 'EAAG-media-token'
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

/** What the provider says of each media id, and the bytes (or answer) its download url gives. */
const media = new Map<string, { description: Record<string, unknown>; file: () => Response }>()
const requested: string[] = []
const provider = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request): Response {
    const { pathname, origin } = new URL(request.url)
    requested.push(pathname)
    if (request.headers.get('authorization') !== `Bearer ${TOKEN}`) return Response.json({ error: 'token' }, { status: 401 })
    const [, kind, id = ''] = pathname.split('/')
    const found = media.get(id)
    if (!found) return Response.json({ error: 'unknown' }, { status: 400 })
    return kind === 'files' ? found.file() : Response.json({ url: `${origin}/files/${id}`, ...found.description })
  },
})
const origin = `http://127.0.0.1:${provider.port}`
afterAll(() => provider.stop(true))

const download = chatappMediaDownloader({
  policy: outboundUrlPolicy(['127.0.0.1']),
  time: systemOutboxTime,
  apiUrl: `${origin}/media`,
  maxBytes: MAX_BYTES,
  timeoutMs: 5_000,
})

let ids = 0
/** A media id the fake provider describes with `description` (its sha256 and size by default) and serves with `file`. */
function addMedia(bytes: Uint8Array, options: { description?: Record<string, unknown>; file?: () => Response } = {}): string {
  const id = `m${++ids}`
  media.set(id, {
    description: { mime_type: 'image/png', sha256: sha256(bytes), file_size: bytes.byteLength, ...options.description },
    file: options.file ?? (() => new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'image/png' } })),
  })
  return id
}

const requestsFor = (id: string) => requested.filter((path) => path.endsWith(`/${id}`))

describe("a user's media fetched from the provider (the checks docs/chatapp-channel.md names)", () => {
  test('is described, then downloaded, with the access token; the bytes come back as served', async () => {
    const id = addMedia(SAMPLE.png)
    const got = await download(id, TOKEN)
    expect(got).toMatchObject({ ok: true })
    expect(got.ok && got.bytes).toEqual(SAMPLE.png)
    expect(requestsFor(id)).toEqual([`/media/${id}`, `/files/${id}`])
  })

  test('bytes that do not match the sha256 the provider announced are refused', async () => {
    const id = addMedia(SAMPLE.png, { description: { sha256: sha256(SAMPLE.pdf) } })
    expect(await download(id, TOKEN)).toEqual({ ok: false, reason: `media ${id} does not match the sha256 the provider gave` })
  })

  test('a file announced over PARLEY_ATTACHMENT_MAX_BYTES is refused without being downloaded', async () => {
    const id = addMedia(SAMPLE.png, { description: { file_size: MAX_BYTES + 1 } })
    expect(await download(id, TOKEN)).toEqual({ ok: false, reason: `media ${id} is ${MAX_BYTES + 1} bytes, over PARLEY_ATTACHMENT_MAX_BYTES (${MAX_BYTES})` })
    expect(requestsFor(id)).toEqual([`/media/${id}`])
  })

  test('a file bigger than announced is refused once it passes PARLEY_ATTACHMENT_MAX_BYTES', async () => {
    const big = new Uint8Array(MAX_BYTES * 4)
    big.set(SAMPLE.png)
    const id = addMedia(big, { description: { file_size: SAMPLE.png.byteLength } })
    expect(await download(id, TOKEN)).toEqual({ ok: false, reason: `media ${id} is over PARLEY_ATTACHMENT_MAX_BYTES (${MAX_BYTES})` })
  })

  test('a redirect from the download url is not followed', async () => {
    const target = addMedia(SAMPLE.png)
    const id = addMedia(SAMPLE.png, { file: () => new Response(null, { status: 302, headers: { location: `${origin}/files/${target}` } }) })
    expect(await download(id, TOKEN)).toEqual({ ok: false, reason: `downloading media ${id}: HTTP 302` })
    expect(requestsFor(target)).toEqual([])
  })

  test('a media id unlike the provider\'s is refused before any request', async () => {
    const before = requested.length
    expect(await download('../../etc/passwd', TOKEN)).toEqual({ ok: false, reason: 'the media id is not one the provider gives' })
    expect(requested.length).toBe(before)
  })

  test('a stop (a shutdown) cuts a download short as interrupted, not as a verdict on the file', async () => {
    let requestedFile = () => {}
    const fileRequested = new Promise<void>((resolve) => (requestedFile = resolve))
    const id = addMedia(SAMPLE.png, {
      file: () => {
        requestedFile()
        // A file that never comes: only the stop ends the wait.
        return new Response(new ReadableStream({ pull: () => new Promise(() => {}) }))
      },
    })
    const stop = new AbortController()
    const downloading = download(id, TOKEN, stop.signal)
    await fileRequested
    stop.abort()
    expect(await downloading).toEqual({ ok: false, reason: `fetching media ${id}: cut short by a shutdown`, interrupted: true })
    // Stopped before it starts: nothing is asked of the provider.
    const before = requested.length
    expect(await download(id, TOKEN, stop.signal)).toMatchObject({ ok: false, interrupted: true })
    expect(requested.length).toBe(before)
  })

  test('a file whose body stops halfway (the timeout fires mid-body) is refused, not stored cut, when the provider gave no sha256', async () => {
    const half = SAMPLE.png.subarray(0, Math.floor(SAMPLE.png.byteLength / 2))
    const id = addMedia(SAMPLE.png, {
      description: { sha256: undefined },
      // The first half, then nothing more: the connection stays open until the timeout.
      file: () => new Response(new ReadableStream({ start: (controller) => controller.enqueue(half), pull: () => new Promise(() => {}) })),
    })
    const impatient = chatappMediaDownloader({ policy: outboundUrlPolicy(['127.0.0.1']), time: systemOutboxTime, apiUrl: `${origin}/media`, maxBytes: MAX_BYTES, timeoutMs: 300 })
    expect(await impatient(id, TOKEN)).toEqual({ ok: false, reason: `downloading media ${id}: the file was cut short after ${half.byteLength} bytes` })
  })
})
