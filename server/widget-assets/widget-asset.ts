import { readFileSync } from 'node:fs'
import { brotliCompressSync, constants } from 'node:zlib'
import type { ContentCoding } from './accept-encoding.ts'

export interface Variant {
  body: Uint8Array<ArrayBuffer>
  /** Strong ETag: the content hash, marked per coding (RFC 9110 asks strong tags to differ). */
  etag: string
}

export type WidgetAsset = Record<ContentCoding, Variant> & { hash: string }

/**
 * What prepareAsset made, by the full content hash: brotli at quality 11 takes seconds for the
 * app's chunks, and each app this process builds (a test makes hundreds) serves the same bytes.
 */
const prepared = new Map<string, WidgetAsset>()

/** Reads a file (or takes its bytes) once and keeps it plain, gzipped and brotli-compressed, each with its ETag. */
export function prepareAsset(source: string | Uint8Array): WidgetAsset {
  const body = new Uint8Array(typeof source === 'string' ? readFileSync(source) : source)
  const digest = new Bun.CryptoHasher('sha256').update(body).digest('base64url')
  const known = prepared.get(digest)
  if (known) return known
  const asset = compress(body, digest.slice(0, 27))
  prepared.set(digest, asset)
  return asset
}

function compress(body: Uint8Array<ArrayBuffer>, hash: string): WidgetAsset {
  const gzip = new Uint8Array(Bun.gzipSync(body, { level: 9 }))
  const br = new Uint8Array(
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    }),
  )
  return {
    hash,
    identity: { body, etag: `"${hash}"` },
    gzip: { body: gzip, etag: `"${hash}-gz"` },
    br: { body: br, etag: `"${hash}-br"` },
  }
}

/** If-None-Match names any coding of this content (or `*`): the client's copy is current. */
export function isFresh(asset: WidgetAsset, ifNoneMatch: string | null): boolean {
  if (!ifNoneMatch) return false
  const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''))
  return tags.some((tag) => tag === '*' || tag === asset.identity.etag || tag === asset.gzip.etag || tag === asset.br.etag)
}
