import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../server/config.ts'
import { trustedProxies } from '../../server/http/trusted-proxies.ts'

const headers = (entries: Record<string, string>) => new Headers(entries)

describe('the client address behind trusted proxies', () => {
  const proxies = trustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8'])

  // [what, peer, headers, client address]
  const cases: [string, string, Record<string, string>, string][] = [
    ['no proxy headers: the peer', '203.0.113.9', {}, '203.0.113.9'],
    ['an untrusted peer forging X-Forwarded-For: ignored', '203.0.113.9', { 'x-forwarded-for': '198.51.100.1' }, '203.0.113.9'],
    ['an untrusted peer forging Forwarded: ignored', '203.0.113.9', { forwarded: 'for=198.51.100.1' }, '203.0.113.9'],
    ['a trusted proxy: the address it forwards for', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }, '198.51.100.1'],
    ['a trusted proxy, nothing forwarded: the proxy itself', '127.0.0.1', {}, '127.0.0.1'],
    ['a forged entry the proxy appended to: the nearest untrusted address', '127.0.0.1', { 'x-forwarded-for': '192.0.2.66, 198.51.100.1' }, '198.51.100.1'],
    ['a chain of trusted proxies is walked past', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 10.1.2.3, 10.0.0.7' }, '198.51.100.1'],
    ['a chain of trusted proxies only: the farthest of them', '127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 10.0.0.7' }, '10.9.9.9'],
    ['several X-Forwarded-For lines read as one list', '127.0.0.1', { 'x-forwarded-for': '192.0.2.66, 198.51.100.1 ,10.0.0.7' }, '198.51.100.1'],
    ['an IPv4 address with a port', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1:4711' }, '198.51.100.1'],
    ['an IPv6 address, bracketed with a port', '127.0.0.1', { 'x-forwarded-for': '[2001:DB8::17]:4711' }, '2001:db8::17'],
    ['an IPv6 address as it is', '127.0.0.1', { 'x-forwarded-for': '2001:db8::17' }, '2001:db8::17'],
    ['an IPv4-mapped peer counts as its IPv4 address', '::ffff:127.0.0.1', { 'x-forwarded-for': '198.51.100.1' }, '198.51.100.1'],
    ['an IPv4-mapped forwarded address is read as IPv4', '127.0.0.1', { 'x-forwarded-for': '::ffff:198.51.100.1' }, '198.51.100.1'],
    ['garbage where an address should be: the last trusted hop', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, not-an-ip' }, '127.0.0.1'],
    ['garbage behind the nearest untrusted address does not matter', '127.0.0.1', { 'x-forwarded-for': '<script>, 198.51.100.1' }, '198.51.100.1'],
    ['Forwarded (RFC 7239) from a trusted proxy', '127.0.0.1', { forwarded: 'for=192.0.2.60;proto=https;by=203.0.113.43' }, '192.0.2.60'],
    ['Forwarded with a quoted IPv6 address and port', '127.0.0.1', { forwarded: 'for="[2001:db8:cafe::17]:4711"' }, '2001:db8:cafe::17'],
    ['Forwarded with several elements, case-insensitive names', '127.0.0.1', { forwarded: 'for=192.0.2.66, For=198.51.100.1;proto=https, for=10.0.0.7' }, '198.51.100.1'],
    ['Forwarded with an obfuscated identifier: the last trusted hop', '127.0.0.1', { forwarded: 'for=_hidden' }, '127.0.0.1'],
    ['X-Forwarded-For wins over Forwarded (the shipped proxy configs set it and drop Forwarded)', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1', forwarded: 'for=192.0.2.66' }, '198.51.100.1'],
    ['an IPv6 proxy in a trusted range', 'fd00::5', { 'x-forwarded-for': '198.51.100.1' }, '198.51.100.1'],
  ]
  for (const [what, peer, sent, expected] of cases) {
    test(what, () => {
      expect(proxies.clientOf(peer, headers(sent))).toBe(expected)
    })
  }

  test('with no trusted proxies (the default) the headers are never read', () => {
    const none = trustedProxies([])
    expect(none.clientOf('127.0.0.1', headers({ 'x-forwarded-for': '198.51.100.1', forwarded: 'for=192.0.2.1' }))).toBe('127.0.0.1')
    expect(none.trusts('127.0.0.1')).toBe(false)
  })

  test('trusts() answers for the addresses in the list, by range', () => {
    expect(proxies.trusts('10.200.3.4')).toBe(true)
    expect(proxies.trusts('::ffff:10.200.3.4')).toBe(true)
    expect(proxies.trusts('11.0.0.1')).toBe(false)
    expect(proxies.trusts('fd12::1')).toBe(true)
    expect(proxies.trusts('unknown')).toBe(false)
  })
})

describe('PARLEY_TRUSTED_PROXIES', () => {
  test('empty by default; addresses and CIDR ranges, comma-separated', () => {
    expect(loadConfig({}).trustedProxies).toEqual([])
    expect(loadConfig({ PARLEY_TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8' }).trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'])
  })

  test('anything else fails at start with one clear line', () => {
    for (const bad of ['localhost', '10.0.0.0/33', '300.1.1.1', 'proxy.internal']) {
      expect(() => loadConfig({ PARLEY_TRUSTED_PROXIES: `127.0.0.1,${bad}` })).toThrow(
        new ConfigError(`PARLEY_TRUSTED_PROXIES entry "${bad}" is not an IP address or a CIDR range (such as 127.0.0.1 or 10.0.0.0/8)`),
      )
    }
  })
})
