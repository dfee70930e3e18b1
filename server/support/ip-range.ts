import { isIPv4, isIPv6 } from 'node:net'

/** An IP address as a number, so that ranges are compared by arithmetic whatever the spelling. */
export interface Ip {
  family: 4 | 6
  value: bigint
}

/** A CIDR range (a single address is a range of its full length). */
export interface Range {
  family: 4 | 6
  base: bigint
  prefix: number
}

export function parseIp(text: string): Ip | null {
  const plain = text.split('%', 1)[0] as string
  if (isIPv4(plain)) return { family: 4, value: plain.split('.').reduce((acc, part) => (acc << 8n) | BigInt(part), 0n) }
  if (isIPv6(plain)) return { family: 6, value: ipv6Value(plain) }
  return null
}

function ipv6Value(text: string): bigint {
  let source = text
  const lastColon = source.lastIndexOf(':')
  const tail = source.slice(lastColon + 1)
  if (tail.includes('.')) {
    const v4 = Number(parseIp(tail)?.value ?? 0n)
    source = `${source.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`
  }
  const [head = '', rest] = source.split('::')
  const headParts = head ? head.split(':') : []
  const restParts = rest ? rest.split(':') : []
  const fill = rest === undefined ? [] : Array<string>(8 - headParts.length - restParts.length).fill('0')
  return [...headParts, ...fill, ...restParts].reduce((acc, part) => (acc << 16n) | BigInt(Number.parseInt(part, 16)), 0n)
}

/** `10.0.0.0/8`, `fd00::/8`, or one address; null when it is neither. */
export function parseRange(text: string): Range | null {
  const [address = '', prefixText, extra] = text.split('/')
  if (extra !== undefined) return null
  const ip = parseIp(address)
  if (!ip || address.includes('%')) return null
  const bits = ip.family === 4 ? 32 : 128
  if (prefixText === undefined) return { family: ip.family, base: ip.value, prefix: bits }
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null
  return { family: ip.family, base: ip.value, prefix: Number(prefixText) }
}

export function contains(range: Range, ip: Ip): boolean {
  if (range.family !== ip.family) return false
  const shift = BigInt((range.family === 4 ? 32 : 128) - range.prefix)
  return range.base >> shift === ip.value >> shift
}
