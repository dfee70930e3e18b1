import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../server/config.ts'
import { type Lookup, outboundUrlPolicy } from '../../server/support/outbound-url.ts'

const strict = outboundUrlPolicy([])
/** What a name that is not allowed gets when it does not resolve, or resolves to an address Parley may not reach. */
const unreachableName = (host: string) =>
  `the host ${host} does not resolve to an address Parley may reach: it does not resolve, or it resolves to a private or local address ` +
  `(which of the two is not said, so that internal names stay private). An operator can allow it by adding "${host}" to PARLEY_OUTBOUND_ALLOW`
const refusedBecause = (url: string, policy = strict) => {
  const result = policy.checkOutboundUrl(url)
  return result.ok ? null : result.reason
}

describe('outbound URLs: scheme and credentials', () => {
  test.each([
    ['https://hooks.example.com/parley', null],
    ['http://hooks.example.com:8080/in?x=1', null],
    ['ftp://hooks.example.com/', 'must use http or https'],
    ['file:///etc/passwd', 'must use http or https'],
    ['javascript:alert(1)', 'must use http or https'],
    ['//hooks.example.com/', 'must be an absolute URL such as https://example.com/webhook'],
    ['hooks.example.com', 'must be an absolute URL such as https://example.com/webhook'],
    ['https://user:pass@hooks.example.com/', 'must not contain a user name or password'],
    ['https://user@hooks.example.com/', 'must not contain a user name or password'],
  ])('%s', (url, reason) => {
    expect(refusedBecause(url)).toBe(reason)
  })
})

describe('outbound URLs: IPv4 literals', () => {
  test.each([
    ['http://8.8.8.8/', null],
    ['http://93.184.215.14/', null],
    ['http://172.32.0.1/', null],
    ['http://100.128.0.1/', null],
    ['http://127.0.0.1/', 'a loopback address'],
    ['http://127.255.255.254:9000/', 'a loopback address'],
    ['http://10.1.2.3/', 'a private address'],
    ['http://172.16.0.1/', 'a private address'],
    ['http://172.31.255.255/', 'a private address'],
    ['http://192.168.1.1/', 'a private address'],
    ['http://169.254.169.254/latest/meta-data/', 'a link-local address'],
    ['http://100.64.0.1/', 'a carrier-grade NAT address'],
    ['http://100.100.100.200/', 'a carrier-grade NAT address'],
    ['http://0.0.0.0/', 'an unspecified'],
    ['http://224.0.0.1/', 'a multicast address'],
    ['http://255.255.255.255/', 'a reserved or broadcast address'],
    ['http://240.0.0.1/', 'a reserved or broadcast address'],
    ['http://192.0.0.8/', 'an IETF protocol address'],
    ['http://192.0.2.10/', 'a documentation address'],
    ['http://198.51.100.7/', 'a documentation address'],
    ['http://203.0.113.200/', 'a documentation address'],
    ['http://198.18.0.1/', 'a benchmarking address'],
    ['http://198.19.255.255/', 'a benchmarking address'],
    ['http://192.88.99.1/', 'a deprecated 6to4 relay address'],
    ['http://198.20.0.1/', null],
    ['http://203.0.114.1/', null],
    ['http://192.0.3.1/', null],
    // WHATWG URL parsing turns these spellings into 127.0.0.1 before the check sees them.
    ['http://2130706433/', 'a loopback address'],
    ['http://0x7f.1/', 'a loopback address'],
    ['http://127.1/', 'a loopback address'],
  ])('%s', (url, reason) => {
    const refused = refusedBecause(url)
    if (reason === null) expect(refused).toBeNull()
    else expect(refused).toContain(reason)
  })
})

describe('outbound URLs: IPv6 literals', () => {
  test.each([
    ['http://[2606:4700:4700::1111]/', null],
    ['http://[2a00:1450:4001:82a::200e]/', null],
    ['http://[::1]/', 'a loopback address'],
    ['http://[0:0:0:0:0:0:0:1]/', 'a loopback address'],
    ['http://[::]/', 'the unspecified address'],
    ['http://[fd00::1]/', 'a unique-local address'],
    ['http://[fd00:ec2::254]/', 'a unique-local address'],
    ['http://[fe80::1]/', 'a link-local address'],
    ['http://[fec0::1]/', 'a site-local address'],
    ['http://[ff02::1]/', 'a multicast address'],
    ['http://[100::1]/', 'a discard-only address'],
    ['http://[100::ffff:ffff:ffff:ffff]/', 'a discard-only address'],
    ['http://[100:0:0:1::1]/', 'a dummy-prefix address'],
    ['http://[2001:db8::1]/', 'a documentation address'],
    ['http://[3fff::1]/', 'a documentation address'],
    ['http://[2001:2::1]/', 'a benchmarking address'],
    ['http://[2001:10::1]/', 'an IETF protocol address'],
    ['http://[5f00::1]/', 'an SRv6 segment identifier'],
    ['http://[2001:200::1]/', null],
  ])('%s', (url, reason) => {
    const refused = refusedBecause(url)
    if (reason === null) expect(refused).toBeNull()
    else expect(refused).toContain(reason)
  })
})

describe('outbound URLs: IPv6 forms that carry an IPv4 address are judged by it, in every spelling', () => {
  // Each form, spelled every way a URL or a DNS answer may spell it, around loopback,
  // cloud metadata and a private address; then around a public address, which passes.
  const forms: [string, (v4: string, hex: string) => string[]][] = [
    ['IPv4-mapped', (v4, hex) => [`::ffff:${v4}`, `::ffff:${hex}`, `0:0:0:0:0:ffff:${hex}`, `0000:0000:0000:0000:0000:FFFF:${v4}`]],
    ['IPv4-translated', (v4, hex) => [`::ffff:0:${v4}`, `::ffff:0:${hex}`, `0:0:0:0:ffff:0:${hex}`, `0000:0000:0000:0000:ffff:0000:${v4}`]],
    ['IPv4-compatible', (v4, hex) => [`::${v4}`, `::${hex}`, `0:0:0:0:0:0:${hex}`]],
    ['NAT64', (v4, hex) => [`64:ff9b::${v4}`, `64:ff9b::${hex}`, `64:ff9b:0:0:0:0:${hex}`]],
    ['6to4', (_, hex) => [`2002:${hex}::`, `2002:${hex}:1234::1`, `2002:${hex}:0:0:0:0:1`]],
  ]
  const inner: [string, string, string][] = [
    ['127.0.0.1', '7f00:1', 'a loopback address'],
    ['169.254.169.254', 'a9fe:a9fe', 'a link-local address (where cloud metadata services live)'],
    ['10.0.0.5', 'a00:5', 'a private address'],
    ['192.168.1.1', 'c0a8:101', 'a private address'],
    ['100.64.0.1', '6440:1', 'a carrier-grade NAT address'],
    ['192.0.2.1', 'c000:201', 'a documentation address'],
  ]
  const refusedRows = forms.flatMap(([label, spell]) =>
    inner.flatMap(([v4, hex, reason]) => spell(v4, hex).map((host) => [host, `the ${label} form of ${reason}`] as const)),
  )
  test.each(refusedRows)('http://[%s]/ is refused as %s', (host, reason) => {
    expect(refusedBecause(`http://[${host}]/`)).toContain(`, ${reason};`)
  })

  test.each(refusedRows)('a DNS answer %s (%s) is refused, without saying the address', async (address) => {
    const policy = outboundUrlPolicy([], async () => [{ address }])
    const result = await policy.resolveAndCheck('https://hooks.example.com/')
    expect(result).toEqual({ ok: false, kind: 'unresolved', reason: unreachableName('hooks.example.com') })
  })

  const publicRows = forms.flatMap(([label, spell]) => spell('8.8.8.8', '808:808').map((host) => [host, label] as const))
  test.each(publicRows)('http://[%s]/ (the %s form of a public address) is allowed', (host) => {
    expect(refusedBecause(`http://[${host}]/`)).toBeNull()
  })

  test.each([
    ['64:ff9b:1::7f00:1', 'a local-use NAT64 address'],
    ['64:ff9b:1:ffff::808:808', 'a local-use NAT64 address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo tunnel address'],
    ['2001::ffff:ffff', 'a Teredo tunnel address'],
  ])('%s is refused outright as %s, whatever it carries', (host, reason) => {
    expect(refusedBecause(`http://[${host}]/`)).toContain(`, ${reason};`)
  })

  test('a refusal names the address as the URL parser wrote it', () => {
    expect(refusedBecause('http://[::ffff:127.0.0.1]:8080/hook')).toStartWith('points to ::ffff:7f00:1, the IPv4-mapped form of a loopback address;')
    expect(refusedBecause('http://[0:0:0:0:ffff:0:127.0.0.1]/')).toStartWith('points to ::ffff:0:7f00:1, the IPv4-translated form of a loopback address;')
  })
})

describe('outbound URLs: names', () => {
  test.each([
    ['http://localhost:3000/', 'a local host name'],
    ['http://LOCALHOST./', 'a local host name'],
    ['http://api.localhost/', 'a local host name'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'a local host name'],
    ['https://localhost.example.com/', null],
    ['https://example.com/', null],
  ])('%s', (url, reason) => {
    const refused = refusedBecause(url)
    if (reason === null) expect(refused).toBeNull()
    else expect(refused).toContain(reason)
  })

  test('a refusal names the address and says how to allow it', () => {
    expect(refusedBecause('http://10.0.0.7:8080/hook')).toBe(
      'points to 10.0.0.7, a private address; Parley does not send requests to private or local addresses. ' +
        'An operator can allow it by adding "10.0.0.7" to PARLEY_OUTBOUND_ALLOW',
    )
  })
})

describe('outbound URLs: the operator allow list', () => {
  const policy = outboundUrlPolicy(['localhost', 'receiver.internal', '10.0.0.0/8', '192.168.1.20', 'fd00::/8', '2001:db8::/32', '198.18.0.0/15', '64:ff9b:1::/48'])
  test.each([
    ['http://localhost:8080/', null],
    ['http://10.200.3.4/', null],
    ['http://[::ffff:10.1.1.1]/', null],
    ['http://[::ffff:0:10.1.1.1]/', null],
    ['http://[64:ff9b::a01:101]/', null],
    ['http://[2002:a01:101::1]/', null],
    ['http://[2001:db8::1]/', null],
    ['http://198.18.0.7/', null],
    ['http://[64:ff9b:1::a01:101]/', null],
    ['http://[::ffff:192.168.1.20]/', null],
    ['http://[::ffff:192.168.1.21]/', 'the IPv4-mapped form of a private address'],
    ['http://[::ffff:0:127.0.0.1]/', 'the IPv4-translated form of a loopback address'],
    ['http://[2001::1]/', 'a Teredo tunnel address'],
    ['http://192.168.1.20/', null],
    ['http://[fd12::1]/', null],
    ['http://192.168.1.21/', 'a private address'],
    ['http://172.16.0.1/', 'a private address'],
    ['http://api.localhost/', 'a local host name'],
    ['http://[fe80::1]/', 'a link-local address'],
    ['http://127.0.0.1/', 'a loopback address'],
  ])('%s', (url, reason) => {
    const refused = refusedBecause(url, policy)
    if (reason === null) expect(refused).toBeNull()
    else expect(refused).toContain(reason)
  })
})

describe('outbound URLs: resolving before connecting', () => {
  const answers: Record<string, string[]> = {
    'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'rebind.example': ['93.184.215.14', '127.0.0.1'],
    'mapped.example': ['::ffff:10.0.0.5'],
    'receiver.internal': ['10.0.0.9'],
  }
  const playedDns: Lookup = async (name) => {
    const addresses = answers[name]
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address }))
  }
  const policy = outboundUrlPolicy(['receiver.internal'], playedDns)

  test('a name whose addresses are all public passes, with the addresses to connect to', async () => {
    expect(await policy.resolveAndCheck('https://public.example/hook')).toMatchObject({
      ok: true,
      addresses: answers['public.example'],
    })
  })

  test('a name with one private address among public ones is refused', async () => {
    const result = await policy.resolveAndCheck('https://rebind.example/hook')
    expect(result).toEqual({ ok: false, kind: 'unresolved', reason: unreachableName('rebind.example') })
  })

  test('internal DNS stays private: a refused name and a name that does not resolve get the same answer, naming no address', async () => {
    const internal = outboundUrlPolicy([], async (name) => {
      if (name === 'db.internal.test') return [{ address: '10.1.2.3' }]
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
    })
    const refused = await internal.resolveAndCheck('http://db.internal.test:5432/')
    const unknown = await internal.resolveAndCheck('http://nothing.internal.test:5432/')
    expect(refused).toEqual({ ok: false, kind: 'unresolved', reason: unreachableName('db.internal.test') })
    expect(unknown).toEqual({ ok: false, kind: 'unresolved', reason: unreachableName('nothing.internal.test') })
    expect(JSON.stringify(refused)).not.toContain('10.1.2.3')
    const empty = await outboundUrlPolicy([], async () => []).resolveAndCheck('http://empty.test/')
    expect(empty).toEqual({ ok: false, kind: 'unresolved', reason: unreachableName('empty.test') })
  })

  test('a name resolving to an IPv4-mapped private address is refused', async () => {
    const result = await policy.resolveAndCheck('https://mapped.example/')
    expect(result.ok).toBe(false)
  })

  test('an allowed name may resolve to a private address', async () => {
    expect(await policy.resolveAndCheck('http://receiver.internal:8080/')).toMatchObject({ ok: true, addresses: ['10.0.0.9'] })
  })

  test('an unresolvable name is refused like a refused one; an allowed name tells the resolver code', async () => {
    expect(await policy.resolveAndCheck('https://nothing.example/')).toEqual({ ok: false, kind: 'unresolved', reason: unreachableName('nothing.example') })
    const allowed = outboundUrlPolicy(['gone.internal'], playedDns)
    expect(await allowed.resolveAndCheck('https://gone.internal/')).toEqual({
      ok: false,
      kind: 'unresolved',
      reason: 'the host gone.internal could not be resolved (ENOTFOUND)',
    })
  })

  test('the synchronous rules apply first, without a lookup', async () => {
    expect((await policy.resolveAndCheck('http://127.0.0.1/')).ok).toBe(false)
    expect((await policy.resolveAndCheck('ftp://public.example/')).ok).toBe(false)
  })

  test('a name that passed once is looked up and checked again: a later private answer is refused', async () => {
    let answer = ['93.184.215.14']
    const changingDns: Lookup = async () => answer.map((address) => ({ address }))
    const changing = outboundUrlPolicy([], changingDns)
    expect(await changing.resolveAndCheck('https://flip.example/')).toMatchObject({ ok: true, addresses: ['93.184.215.14'] })
    answer = ['169.254.169.254']
    expect(await changing.resolveAndCheck('https://flip.example/')).toEqual({ ok: false, kind: 'unresolved', reason: unreachableName('flip.example') })
    answer = ['93.184.215.14']
    expect((await changing.resolveAndCheck('https://flip.example/')).ok).toBe(true)
  })

  test('verdicts past the kept number are worked out again, not lost', async () => {
    const many = outboundUrlPolicy([])
    for (let index = 0; index < 1100; index++) expect(many.checkOutboundUrl(`http://8.8.${index >> 8}.${index & 255}/`).ok).toBe(true)
    expect(many.checkOutboundUrl('http://10.0.0.1/').ok).toBe(false)
    expect(many.checkOutboundUrl('http://8.8.0.0/').ok).toBe(true)
  })

  test('an IP literal is not looked up', async () => {
    expect(await policy.resolveAndCheck('http://8.8.8.8/')).toMatchObject({ ok: true, addresses: ['8.8.8.8'] })
  })

  test('with the real resolver, localhost is refused unless allowed, and then resolves to loopback', async () => {
    expect((await outboundUrlPolicy([]).resolveAndCheck('http://localhost/')).ok).toBe(false)
    const allowed = await outboundUrlPolicy(['localhost']).resolveAndCheck('http://localhost/')
    expect(allowed.ok).toBe(true)
    if (allowed.ok) expect(allowed.addresses.some((a) => a === '::1' || a.startsWith('127.'))).toBe(true)
  })
})

describe('PARLEY_OUTBOUND_ALLOW', () => {
  test('is empty by default', () => {
    expect(loadConfig({}).outboundAllow).toEqual([])
  })

  test('takes comma-separated names, IPs and CIDR ranges, trimmed and lowercased', () => {
    expect(loadConfig({ PARLEY_OUTBOUND_ALLOW: ' Receiver.Internal , 10.0.0.0/8,,::1, fd00::/8,192.168.1.20 ' }).outboundAllow).toEqual([
      'receiver.internal',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      '192.168.1.20',
    ])
  })

  test.each([
    ['10.0.0.0/33', 'PARLEY_OUTBOUND_ALLOW entry "10.0.0.0/33" is not a valid CIDR range (such as 10.0.0.0/8 or fd00::/8)'],
    ['fd00::/129', 'PARLEY_OUTBOUND_ALLOW entry "fd00::/129" is not a valid CIDR range (such as 10.0.0.0/8 or fd00::/8)'],
    ['host/8', 'PARLEY_OUTBOUND_ALLOW entry "host/8" is not a valid CIDR range (such as 10.0.0.0/8 or fd00::/8)'],
    ['300.1.1.1', 'PARLEY_OUTBOUND_ALLOW entry "300.1.1.1" is not a valid IPv4 address'],
    ['http://x.example', 'PARLEY_OUTBOUND_ALLOW entry "http://x.example" is a URL; write only its host name (such as receiver.internal)'],
    ['bad host', 'PARLEY_OUTBOUND_ALLOW entry "bad host" is not a host name, an IP address or a CIDR range'],
    ['*.example.com', 'PARLEY_OUTBOUND_ALLOW entry "*.example.com" is not a host name, an IP address or a CIDR range'],
  ])('refuses %j at start with one clear line', (value, message) => {
    expect(() => loadConfig({ PARLEY_OUTBOUND_ALLOW: value })).toThrow(new ConfigError(message))
  })
})
