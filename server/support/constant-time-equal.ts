import { timingSafeEqual } from 'node:crypto'

const encoder = new TextEncoder()

/** Compares two secrets in time that depends only on their lengths, never on their contents. */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = typeof a === 'string' ? encoder.encode(a) : a
  const right = typeof b === 'string' ? encoder.encode(b) : b
  if (left.length !== right.length) {
    timingSafeEqual(left, left)
    return false
  }
  return timingSafeEqual(left, right)
}
