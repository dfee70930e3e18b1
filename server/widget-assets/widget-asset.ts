import { readFileSync } from 'node:fs'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { type ContentCoding, chooseEncoding } from './accept-encoding.ts'

export interface Variant {
  body: Uint8Array<ArrayBuffer>
  /** Strong ETag: the content hash, marked per coding (RFC 9110 asks strong tags to differ). */
  etag: string
}

export interface WidgetAsset {
  hash: string
  identity: Variant
  /** The asset in a coding: at once once made; the first ask for a coding waits for it. */
  variant(coding: ContentCoding): Variant | Promise<Variant>
}

/**
 * What prepareAsset made, by the full content hash: each app this process builds (a test
 * process builds hundreds) serves the same bytes.
 */
const prepared = new Map<string, WidgetAsset>()

/**
 * Reads a file (or takes its bytes) once and keeps it plain, with its ETag; its gzipped and
 * brotli-compressed variants are made when first asked for, once, off the serving thread. (Made at start, brotli 11
 * over the app's chunks held every start of the binary for seconds, mostly for codings no
 * client asked for: browsers send br only over https.)
 */
export function prepareAsset(source: string | Uint8Array): WidgetAsset {
  const body = new Uint8Array(typeof source === 'string' ? readFileSync(source) : source)
  const digest = new Bun.CryptoHasher('sha256').update(body).digest('base64url')
  const known = prepared.get(digest)
  if (known) return known
  const asset = lazilyCompressed(body, digest.slice(0, 27))
  prepared.set(digest, asset)
  return asset
}

/** As prepareAsset, for bytes made per request (kept by the caller, which bounds how many): not remembered here. */
export function transientAsset(body: Uint8Array<ArrayBuffer>): WidgetAsset {
  return lazilyCompressed(body, new Bun.CryptoHasher('sha256').update(body).digest('base64url').slice(0, 27))
}

function lazilyCompressed(body: Uint8Array<ArrayBuffer>, hash: string): WidgetAsset {
  const identity: Variant = { body, etag: etagOf(hash, 'identity') }
  const made: Partial<Record<ContentCoding, Variant>> = { identity }
  const making: Partial<Record<ContentCoding, Promise<Variant>>> = {}
  return {
    hash,
    identity,
    variant(coding) {
      const ready = made[coding]
      if (ready) return ready
      // On zlib's thread pool, not the serving thread: brotli 11 over the app's largest chunk
      // takes over a second on a 2-core machine, which held every socket when done inline.
      making[coding] ??= compress(body, coding as Exclude<ContentCoding, 'identity'>).then((compressed) => {
        const variant = { body: compressed, etag: etagOf(hash, coding) }
        made[coding] = variant
        return variant
      })
      return making[coding]
    },
  }
}

function compress(body: Uint8Array, coding: 'gzip' | 'br'): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(new Uint8Array(result)))
    if (coding === 'gzip') gzip(body, { level: 9 }, done)
    else brotliCompress(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }, done)
  })
}

function etagOf(hash: string, coding: ContentCoding): string {
  return coding === 'identity' ? `"${hash}"` : coding === 'gzip' ? `"${hash}-gz"` : `"${hash}-br"`
}

/** If-None-Match names any coding of this content (or `*`): the client's copy is current. */
export function isFresh(asset: WidgetAsset, ifNoneMatch: string | null): boolean {
  if (!ifNoneMatch) return false
  const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''))
  const current = (['identity', 'gzip', 'br'] as const).map((coding) => etagOf(asset.hash, coding))
  return tags.some((tag) => tag === '*' || current.includes(tag))
}

/**
 * The answer to a GET of an asset: in the coding the client accepts, with its ETag, or 304
 * when the client's copy is current. `headers` (its caching) go on both.
 */
export function assetResponse(request: Request, asset: WidgetAsset, contentType: string, headers: Record<string, string>): Response | Promise<Response> {
  const coding = chooseEncoding(request.headers.get('accept-encoding'))
  // The ETag from the hash alone: a 304 needs no compressed body, so it makes none.
  const common: Record<string, string> = { ...headers, vary: headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding', etag: etagOf(asset.hash, coding) }
  if (isFresh(asset, request.headers.get('if-none-match'))) return new Response(null, { status: 304, headers: common })
  const answered: Record<string, string> = { ...common, 'content-type': contentType }
  if (coding !== 'identity') answered['content-encoding'] = coding
  const variant = asset.variant(coding)
  return variant instanceof Promise ? variant.then(({ body }) => new Response(body, { headers: answered })) : new Response(variant.body, { headers: answered })
}
