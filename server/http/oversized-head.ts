import { problemResponse } from './problem.ts'

/**
 * The longest request target (path and query) Parley reads. Before these limits were
 * Parley's own, Bun's parser refused any request head over 16 KiB with an empty 431; the
 * listener now lets heads up to MAX_REQUEST_HEAD_BYTES through so that these limits can
 * answer in problem+json, and keeps what was accepted then accepted now.
 */
export const MAX_TARGET_BYTES = 16 * 1024
/** The most header bytes (names, values, ": " and line ends) a request may carry. */
export const MAX_HEADER_BYTES = 16 * 1024

/**
 * 414 for a request target over MAX_TARGET_BYTES, 431 for headers over MAX_HEADER_BYTES, as
 * problem+json; null for a request within both. Lengths are counted in UTF-16 code units,
 * which for the ASCII a request head is made of are its bytes.
 */
export function oversizedHead(request: Request, requestId: string): Response | null {
  const url = request.url
  const targetLength = url.length - url.indexOf('/', url.indexOf('//') + 2)
  if (targetLength > MAX_TARGET_BYTES) {
    return problemResponse({
      status: 414,
      code: 'uri_too_long',
      detail: `the request's path and query are ${targetLength} bytes; at most ${MAX_TARGET_BYTES} are read (send large input in a JSON body)`,
      requestId,
    })
  }
  let headerBytes = 0
  for (const [name, value] of request.headers) headerBytes += name.length + value.length + 4
  if (headerBytes > MAX_HEADER_BYTES) {
    return problemResponse({
      status: 431,
      code: 'headers_too_large',
      detail: `the request's headers are ${headerBytes} bytes; at most ${MAX_HEADER_BYTES} are read`,
      requestId,
    })
  }
  return null
}
