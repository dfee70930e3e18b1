import type { TrustedProxies } from './trusted-proxies.ts'

/** What a listener knows of its requests: who is at the other end of each connection, and which of those are proxies. */
export interface Peers {
  requestIP(request: Request): { address: string } | null
  proxies?: TrustedProxies
}

// On the request itself, as request-context.ts keeps its context: no WeakMap entry per request.
const LISTENER = Symbol('parley.listener')
type WithListener = Request & { [LISTENER]?: Peers }

/**
 * Recorded by the listener, which alone knows the peers of its requests; the address itself
 * is looked up only when a route asks for it.
 */
export function rememberListener(request: Request, listener: Peers): void {
  ;(request as WithListener)[LISTENER] = listener
}

/**
 * The client's IP address: the peer's, or, when the peer is a trusted proxy
 * (PARLEY_TRUSTED_PROXIES), the client it forwards for; "unknown" for requests that did not
 * come through a listener. Every per-address limit, log line and record uses this.
 */
export function clientAddress(request: Request): string {
  const listener = (request as WithListener)[LISTENER]
  const peer = listener?.requestIP(request)?.address ?? 'unknown'
  return listener?.proxies ? listener.proxies.clientOf(peer, request.headers) : peer
}

/**
 * The unit a per-address count should use: an IPv4 address as it is (an IPv4-mapped IPv6
 * address as its IPv4), an IPv6 address as its /64 network, "2001:db8:0:1::/64". One IPv6
 * host is usually given a whole /64, so counting single IPv6 addresses would let it take a
 * fresh address for every attempt.
 */
export function addressGroup(address: string): string {
  if (!address.includes(':')) return address
  const plain = address.replace(/%.*$/, '').toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain)
  if (mapped) return mapped[1] as string
  const [head = '', tail] = plain.split('::')
  const groupsOf = (part: string) => (part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : [])
  const front = groupsOf(head)
  const back = tail === undefined ? [] : groupsOf(tail)
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back]
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`
}
