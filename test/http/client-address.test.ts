import { describe, expect, test } from 'bun:test'
import { addressGroup } from '../../server/http/client-address.ts'

describe('the address group a per-address count uses', () => {
  test('an IPv4 address is itself, also when it comes IPv4-mapped', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7')
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressGroup('::FFFF:127.0.0.1')).toBe('127.0.0.1')
    expect(addressGroup('unknown')).toBe('unknown')
  })

  test('every IPv6 address of one /64 counts as one, however it is written', () => {
    const group = '2001:db8:0:1::/64'
    for (const address of ['2001:db8:0:1::1', '2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0DB8:0000:0001:0:0:0:2', '2001:db8::1:abcd:0:0:1', '2001:db8:0:1::9%eth0']) {
      expect(addressGroup(address)).toBe(group)
    }
    expect(addressGroup('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64')
    expect(addressGroup('::1')).toBe('0:0:0:0::/64')
    expect(addressGroup('2001:db8::')).toBe('2001:db8:0:0::/64')
    expect(addressGroup('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64')
  })
})
