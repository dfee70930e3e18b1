import { lookup as dnsLookup } from 'node:dns/promises'
import { contains, type Ip, parseIp, parseRange, type Range } from './ip-range.ts'

/**
 * Where Parley may send requests on a user's behalf (webhooks, later MCP servers). A URL a
 * client configures must not let it reach the server's own network (SSRF): loopback,
 * private, link-local (cloud metadata), CGNAT, unique-local, multicast, unspecified and the
 * other special-purpose addresses that are not globally reachable (documentation,
 * benchmarking, reserved), and IPv6 forms that carry one of those IPv4 addresses, are refused
 * unless the operator allows them with PARLEY_OUTBOUND_ALLOW.
 */

export type OutboundCheck = { ok: true; url: URL } | { ok: false; reason: string }
/**
 * `refused`: the URL itself may not be reached (its scheme, an IP address or a local name in
 * it), and never will be. `unresolved`: its name did not resolve to an address Parley may
 * reach now; DNS may change that.
 */
export type ResolvedCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; kind: 'refused' | 'unresolved'; reason: string }

/** `dns.lookup(host, {all: true})`; injectable so that tests can play a DNS answer. */
export type Lookup = (hostname: string) => Promise<{ address: string }[]>

export type OutboundUrlPolicy = ReturnType<typeof outboundUrlPolicy>

const ALLOW_SETTING = 'PARLEY_OUTBOUND_ALLOW'

/**
 * Refused whatever follows the prefix: every range of the IANA special-purpose registries that
 * is not globally reachable, plus multicast. The first match names the refusal, so a narrower
 * range comes before the one that holds it.
 */
const BLOCKED: readonly [string, string][] = [
  ['0.0.0.0/8', 'an unspecified ("this network") address'],
  ['10.0.0.0/8', 'a private address'],
  ['100.64.0.0/10', 'a carrier-grade NAT address'],
  ['127.0.0.0/8', 'a loopback address'],
  ['169.254.0.0/16', 'a link-local address (where cloud metadata services live)'],
  ['172.16.0.0/12', 'a private address'],
  ['192.0.0.0/24', 'an IETF protocol address'],
  ['192.0.2.0/24', 'a documentation address'],
  ['192.88.99.0/24', 'a deprecated 6to4 relay address'],
  ['192.168.0.0/16', 'a private address'],
  ['198.18.0.0/15', 'a benchmarking address'],
  ['198.51.100.0/24', 'a documentation address'],
  ['203.0.113.0/24', 'a documentation address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved or broadcast address'],
  ['::/128', 'the unspecified address'],
  ['::1/128', 'a loopback address'],
  // Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the prefix length the
  // local network chose, so it cannot be read out; it only ever reaches a local translator.
  ['64:ff9b:1::/48', 'a local-use NAT64 address'],
  ['100::/64', 'a discard-only address'],
  ['100:0:0:1::/64', 'a dummy-prefix address'],
  // Teredo: refused outright rather than judged by the client address it carries (XOR-ed, and
  // behind a NAT that the address does not describe); no webhook receiver lives on one.
  ['2001::/32', 'a Teredo tunnel address'],
  ['2001:2::/48', 'a benchmarking address'],
  ['2001::/23', 'an IETF protocol address'],
  ['2001:db8::/32', 'a documentation address'],
  ['3fff::/20', 'a documentation address'],
  ['5f00::/16', 'an SRv6 segment identifier'],
  ['fc00::/7', 'a unique-local address'],
  ['fe80::/10', 'a link-local address'],
  ['fec0::/10', 'a site-local address'],
  ['ff00::/8', 'a multicast address'],
]

/**
 * IPv6 forms that carry an IPv4 address in their last 32 bits (or, for 6to4, bits 16-47):
 * judged by the IPv4 address they reach, so `::ffff:127.0.0.1` is loopback and
 * `::ffff:8.8.8.8` is not. Every spelling (`::ffff:7f00:1`, expanded, dotted) is one number.
 */
const EMBEDDING: readonly [string, string, (value: bigint) => bigint][] = [
  ['::ffff:0:0/96', 'IPv4-mapped', (v) => v & 0xffffffffn],
  ['::ffff:0:0:0/96', 'IPv4-translated', (v) => v & 0xffffffffn],
  ['::/96', 'IPv4-compatible', (v) => v & 0xffffffffn],
  ['64:ff9b::/96', 'NAT64', (v) => v & 0xffffffffn],
  ['2002::/16', '6to4', (v) => (v >> 80n) & 0xffffffffn],
]

/** Hosts and addresses whose verdict a policy keeps (a few model, MCP and webhook hosts in practice). */
const VERDICTS_KEPT = 1024

const BLOCKED_NAMES = new Set(['localhost', 'metadata.google.internal'])

const blockedRanges = BLOCKED.map(([cidr, label]) => ({ range: parseRange(cidr) as Range, label }))
const embeddings = EMBEDDING.map(([cidr, label, extract]) => ({ range: parseRange(cidr) as Range, label, extract }))

/**
 * Builds the policy from the operator's allow list (host names, IP addresses or CIDR ranges,
 * already validated by `outboundAllowEntryProblem`).
 */
export function outboundUrlPolicy(allow: readonly string[], lookup: Lookup = defaultLookup) {
  const allowedNames = new Set<string>()
  const allowedRanges: Range[] = []
  for (const entry of allow) {
    const range = parseRange(entry)
    if (range) allowedRanges.push(range)
    else allowedNames.add(normalName(entry))
  }
  const isAllowedIp = (ip: Ip) => allowedRanges.some((range) => contains(range, ip))

  /** Why this address must not be reached, or null when it may be. */
  function blockReason(ip: Ip): string | null {
    if (isAllowedIp(ip)) return null
    // `::` and `::1` sit inside the IPv4-compatible range but are their own things.
    if (ip.family === 6 && ip.value > 1n) {
      const embedding = embeddings.find(({ range }) => contains(range, ip))
      if (embedding) {
        const inner = blockReason({ family: 4, value: embedding.extract(ip.value) })
        return inner && `the ${embedding.label} form of ${inner}`
      }
    }
    return blockedRanges.find(({ range }) => contains(range, ip))?.label ?? null
  }

  /**
   * Whether a host (or a resolved address) is an IP address, and why it is blocked (null when
   * it may be reached), kept per text: the allow list is fixed for the policy's life, and
   * reading and matching an address against every range was about a tenth of the serving
   * thread's work around each model and tool call (bench:agent's profile). Bounded: past the limit it starts over.
   */
  const verdicts = new Map<string, { isIp: boolean; reason: string | null }>()
  function verdictOf(text: string): { isIp: boolean; reason: string | null } {
    let verdict = verdicts.get(text)
    if (!verdict) {
      const ip = parseIp(text)
      verdict = { isIp: ip !== null, reason: ip ? blockReason(ip) : null }
      if (verdicts.size >= VERDICTS_KEPT) verdicts.clear()
      verdicts.set(text, verdict)
    }
    return verdict
  }

  function refusal(shown: string, label: string, allowAs: string[]): string {
    const options = allowAs.map((value) => `"${value}"`).join(' or ')
    return `points to ${shown}, ${label}; Parley does not send requests to private or local addresses. An operator can allow it by adding ${options} to ${ALLOW_SETTING}`
  }

  function unreachableName(host: string): string {
    return (
      `the host ${host} does not resolve to an address Parley may reach: it does not resolve, or it resolves to a private or local address ` +
      `(which of the two is not said, so that internal names stay private). An operator can allow it by adding "${host}" to ${ALLOW_SETTING}`
    )
  }

  /** Scheme, credentials and the host as written: no DNS, so it can run while validating a request. */
  function checkOutboundUrl(input: string | URL): OutboundCheck {
    let url: URL
    try {
      url = typeof input === 'string' ? new URL(input) : input
    } catch {
      return { ok: false, reason: 'must be an absolute URL such as https://example.com/webhook' }
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'must use http or https' }
    if (url.username || url.password) return { ok: false, reason: 'must not contain a user name or password' }
    const host = hostOf(url)
    if (allowedNames.has(host)) return { ok: true, url }
    const verdict = verdictOf(host)
    if (verdict.isIp) return verdict.reason ? { ok: false, reason: refusal(host, verdict.reason, [host]) } : { ok: true, url }
    if (BLOCKED_NAMES.has(host) || host.endsWith('.localhost')) {
      return { ok: false, reason: refusal(host, 'a local host name', [host]) }
    }
    return { ok: true, url }
  }

  /**
   * The check to run just before connecting: resolves the name and refuses when any of its
   * addresses is blocked. Connect to one of the returned addresses, not to the name again,
   * so that a second DNS answer cannot point somewhere else (DNS rebinding).
   */
  async function resolveAndCheck(input: string | URL): Promise<ResolvedCheck> {
    const checked = checkOutboundUrl(input)
    if (!checked.ok) return { ...checked, kind: 'refused' }
    const url = checked.url
    const host = hostOf(url)
    if (verdictOf(host).isIp) return { ok: true, url, addresses: [host] }
    const allowed = allowedNames.has(host)
    // A name the operator did not allow gets one answer whether it does not resolve or
    // resolves to an address Parley may not reach, and never the address: otherwise anyone
    // who may set a webhook or MCP URL could read the internal DNS through the refusals.
    const unreachable = { ok: false, kind: 'unresolved', reason: unreachableName(host) } as const
    let addresses: string[]
    try {
      addresses = (await lookup(host)).map((entry) => entry.address)
    } catch (error) {
      if (!allowed) return unreachable
      return { ok: false, kind: 'unresolved', reason: `the host ${host} could not be resolved (${(error as { code?: string }).code ?? 'error'})` }
    }
    if (addresses.length === 0) return allowed ? { ok: false, kind: 'unresolved', reason: `the host ${host} has no address` } : unreachable
    if (!allowed) {
      for (const address of addresses) {
        const verdict = verdictOf(address)
        if (!verdict.isIp || verdict.reason) return unreachable
      }
    }
    return { ok: true, url, addresses }
  }

  return { checkOutboundUrl, resolveAndCheck }
}

/** Why one PARLEY_OUTBOUND_ALLOW entry is unusable, or null when it is a name, an IP or a CIDR. */
export function outboundAllowEntryProblem(entry: string): string | null {
  if (entry.includes('://')) return 'is a URL; write only its host name (such as receiver.internal)'
  if (entry.includes('/')) return parseRange(entry) ? null : 'is not a valid CIDR range (such as 10.0.0.0/8 or fd00::/8)'
  if (parseIp(entry)) return null
  if (/^[\d.]+$/.test(entry)) return 'is not a valid IPv4 address'
  const labels = normalName(entry).split('.')
  const valid = labels.every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label))
  return valid && entry.length <= 253 ? null : 'is not a host name, an IP address or a CIDR range'
}

async function defaultLookup(hostname: string) {
  return dnsLookup(hostname, { all: true, verbatim: true })
}

function hostOf(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  return normalName(host)
}

function normalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '')
}
