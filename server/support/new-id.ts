import { encodeTime } from 'ulid'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** Every 10-bit value as its two Crockford characters, so a 40-bit half is four lookups. */
const PAIRS = Array.from({ length: 1024 }, (_, value) => (CROCKFORD[value >> 5] as string) + (CROCKFORD[value & 31] as string))
const HALF = 2 ** 40
const POOL_BYTES = 4096

let pool = new Uint8Array(0)
let poolAt = 0
let lastMs = -1
let prefix = ''
/** The 80 random bits of the last id, as two 40-bit halves (exact in a double). */
let high = 0
let low = 0

/** 40 bits from the CSPRNG, drawn from a pool refilled a few kilobytes at a time. */
function random40(): number {
  if (poolAt + 5 > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES))
    poolAt = 0
  }
  let value = 0
  for (let i = 0; i < 5; i++) value = value * 256 + (pool[poolAt++] as number)
  return value
}

function writeHalf(value: number): string {
  const a = value % 1024
  value = (value - a) / 1024
  const b = value % 1024
  value = (value - b) / 1024
  const c = value % 1024
  const d = (value - c) / 1024
  return (PAIRS[d] as string) + (PAIRS[c] as string) + (PAIRS[b] as string) + (PAIRS[a] as string)
}

/**
 * ULIDs that sort in creation order even within one millisecond: each millisecond's first id
 * has the time (encoded by the `ulid` package) and 80 fresh random bits from the CSPRNG; the
 * next ones in that millisecond add one to the random part, as the package's monotonic
 * factory does. Drawing randomness from a pool and counting on numbers instead of strings
 * takes ids off a busy server's profile.
 */
export function newId(): string {
  const ms = Date.now()
  if (ms > lastMs) {
    lastMs = ms
    prefix = encodeTime(ms, 10)
    high = random40()
    low = random40()
  } else if (++low === HALF) {
    // Same millisecond, or the clock stepped back: keep counting from the last id.
    low = 0
    if (++high === HALF) throw new Error('ULID random part exhausted within one millisecond')
  }
  return prefix + writeHalf(high) + writeHalf(low)
}
