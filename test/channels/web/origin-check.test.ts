import { describe, expect, test } from 'bun:test'
import { isOriginAllowed } from '../../../server/channels/web/origin-check.ts'

describe('allowed_domains against Origin', () => {
  test.each([
    [[], null, true],
    [[], 'https://anything.io', true],
    [['shop.io'], 'https://shop.io', true],
    [['shop.io'], 'http://shop.io:8080', true],
    [['shop.io'], 'https://www.shop.io', false],
    [['shop.io'], 'https://evilshop.io', false],
    [['shop.io'], null, false],
    [['shop.io'], 'null', false],
    [['*.shop.io'], 'https://www.shop.io', true],
    [['*.shop.io'], 'https://a.b.shop.io', true],
    [['*.shop.io'], 'https://shop.io', false],
    [['*.shop.io'], 'https://notshop.io', false],
    [['shop.io:8443'], 'https://shop.io:8443', true],
    [['shop.io:8443'], 'https://shop.io', false],
    [['Shop.IO'], 'https://SHOP.io', true],
    [['shop.io'], 'file:///etc/passwd', false],
  ])('%j allows %j: %p', (domains, origin, expected) => {
    expect(isOriginAllowed(domains, origin)).toBe(expected)
  })
})
