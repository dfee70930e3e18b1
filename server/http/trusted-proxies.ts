import { contains, type Ip, parseIp, parseRange, type Range } from '../support/ip-range.ts'

export type TrustedProxies = ReturnType<typeof trustedProxies>

/** Peers whose verdict is kept (the proxies themselves, and the clients of a server without a proxy). */
const VERDICTS_KEPT = 4096

/**
 * Who the client is when Parley sits behind reverse proxies (PARLEY_TRUSTED_PROXIES): only
 * when the connection comes from a trusted proxy are the forwarding headers read, and then
 * the client is the nearest address in the chain that is not itself a trusted proxy. What
 * lies to the left of it was written by the client and is never believed.
 *
 * `X-Forwarded-For` is read when present, `Forwarded` (RFC 7239) only when it is not: a
 * proxy that sets one passes the other through as the client sent it, so reading both would
 * let a client pick its address. Caddy, nginx (deploy/), Traefik, HAProxy's `forwardfor`
 * and cloud load balancers all set `X-Forwarded-For`; the shipped configurations also drop
 * any `Forwarded` a client sends.
 */
export function trustedProxies(entries: readonly string[]) {
  const ranges = entries.map((entry) => parseRange(entry)).filter((range): range is Range => range !== null)
  const verdicts = new Map<string, boolean>()

  function trusts(address: string): boolean {
    if (ranges.length === 0) return false
    let verdict = verdicts.get(address)
    if (verdict === undefined) {
      const ip = readIp(address)
      verdict = ip !== null && ranges.some((range) => contains(range, ip))
      if (verdicts.size >= VERDICTS_KEPT) verdicts.clear()
      verdicts.set(address, verdict)
    }
    return verdict
  }

  return {
    trusts,
    /** The client's address: the peer's, unless the peer is a trusted proxy that says whom it forwards for. */
    clientOf(peer: string, headers: Headers): string {
      if (!trusts(peer)) return peer
      const chain = forwardedChain(headers)
      let client = peer
      for (let hop = chain.length - 1; hop >= 0 && trusts(client); hop--) {
        const address = addressOf(chain[hop] as string)
        // A hop a trusted proxy could not name (`unknown`, an obfuscated `_id`): the proxy is as near as we know.
        if (address === null) break
        client = address
      }
      return client
    },
  }
}

/** The hops as the proxies appended them, the nearest last. */
function forwardedChain(headers: Headers): string[] {
  const forwardedFor = headers.get('x-forwarded-for')
  if (forwardedFor !== null) return forwardedFor.split(',')
  const forwarded = headers.get('forwarded')
  if (forwarded === null) return []
  return forwarded.split(',').map((element) => {
    for (const pair of element.split(';')) {
      const equals = pair.indexOf('=')
      if (equals > 0 && pair.slice(0, equals).trim().toLowerCase() === 'for') return pair.slice(equals + 1)
    }
    return ''
  })
}

/** One hop's address, written plain or as `"[v6]:port"` / `v4:port`, IPv4-mapped IPv6 as IPv4; null when it is none. */
function addressOf(hop: string): string | null {
  let text = hop.trim()
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) text = text.slice(1, -1)
  if (text.startsWith('[')) {
    const end = text.indexOf(']')
    if (end < 0) return null
    text = text.slice(1, end)
  } else if (text.includes('.') && text.indexOf(':') === text.lastIndexOf(':') && text.includes(':')) {
    text = text.slice(0, text.indexOf(':'))
  }
  const ip = readIp(text)
  if (!ip) return null
  return ip.family === 4 && text.includes(':') ? ipv4Text(ip.value) : text.toLowerCase()
}

/** An address as a number; an IPv4-mapped IPv6 address as the IPv4 address it is. */
function readIp(text: string): Ip | null {
  const ip = parseIp(text)
  if (ip?.family === 6 && ip.value >> 32n === 0xffffn) return { family: 4, value: ip.value & 0xffffffffn }
  return ip
}

function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.')
}
