import { ulid } from 'ulid'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const DIGIT = new Map([...CROCKFORD].map((char, value) => [char, value]))
const HALF = 2 ** 40

let lastMs = -1
let prefix = ''
/** The 80 random bits of the last id, as two 40-bit halves (exact in a double). */
let high = 0
let low = 0

const readHalf = (chars: string) => [...chars].reduce((value, char) => value * 32 + (DIGIT.get(char) as number), 0)

function writeHalf(value: number): string {
  let out = ''
  for (let i = 0; i < 8; i++) {
    out = CROCKFORD[value % 32] + out
    value = Math.floor(value / 32)
  }
  return out
}

/**
 * ULIDs that sort in creation order even within one millisecond: the `ulid` package makes
 * each millisecond's first id (time and 80 random bits from the CSPRNG), and the next ones
 * in that millisecond add one to the random part, as its monotonic factory does. Doing the
 * increment on numbers rather than re-encoding the time and walking the string each time
 * takes ids off a busy server's profile.
 */
export function newId(): string {
  const ms = Date.now()
  if (ms > lastMs) {
    const id = ulid(ms)
    lastMs = ms
    prefix = id.slice(0, 10)
    high = readHalf(id.slice(10, 18))
    low = readHalf(id.slice(18))
    return id
  }
  // Same millisecond, or the clock stepped back: keep counting from the last id.
  if (++low === HALF) {
    low = 0
    if (++high === HALF) throw new Error('ULID random part exhausted within one millisecond')
  }
  return prefix + writeHalf(high) + writeHalf(low)
}
