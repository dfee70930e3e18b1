import { describe, expect, test } from 'bun:test'
import { safeHref, safeMediaUrl, splitLinks } from '../../widget/src/links.ts'

describe('links in message text', () => {
  test('cuts text into plain pieces and http(s) links', () => {
    expect(splitLinks('See https://shop.dev/help for help.')).toEqual([
      { text: 'See ' },
      { text: 'https://shop.dev/help', href: 'https://shop.dev/help' },
      { text: ' for help.' },
    ])
  })

  test('links e-mail addresses and www. addresses', () => {
    expect(splitLinks('Mail help@shop.dev or visit www.shop.dev/faq!')).toEqual([
      { text: 'Mail ' },
      { text: 'help@shop.dev', href: 'mailto:help@shop.dev' },
      { text: ' or visit ' },
      { text: 'www.shop.dev/faq', href: 'https://www.shop.dev/faq' },
      { text: '!' },
    ])
  })

  test('keeps balanced brackets in a link and leaves a closing one outside', () => {
    expect(splitLinks('(see https://en.wikipedia.org/wiki/Solid_(web)) ok')).toEqual([
      { text: '(see ' },
      { text: 'https://en.wikipedia.org/wiki/Solid_(web)', href: 'https://en.wikipedia.org/wiki/Solid_(web)' },
      { text: ') ok' },
    ])
  })

  test('never links javascript:, data: or other schemes, and leaves HTML as plain text', () => {
    const text = 'javascript:alert(1) data:text/html,<b>x</b> <a href="https://x.dev">y</a> ftp://files.dev'
    expect(splitLinks(text).filter((piece) => piece.href)).toEqual([{ text: 'https://x.dev', href: 'https://x.dev/' }])
    expect(splitLinks(text).map((piece) => piece.text).join('')).toBe(text)
  })

  test('plain text stays one piece, and empty text no piece', () => {
    expect(splitLinks('no links here')).toEqual([{ text: 'no links here' }])
    expect(splitLinks('')).toEqual([])
  })

  test.each([
    ['https://shop.dev/a', 'https://shop.dev/a'],
    ['http://shop.dev', 'http://shop.dev/'],
    ['mailto:ada@lovelace.dev', 'mailto:ada@lovelace.dev'],
    ['javascript:alert(1)', undefined],
    ['JaVaScRiPt:alert(1)', undefined],
    ['data:image/png;base64,AAAA', undefined],
    ['/relative', undefined],
  ])('safeHref(%p) is %p', (input, expected) => {
    expect(safeHref(input)).toBe(expected)
  })

  test('media only from http(s)', () => {
    expect(safeMediaUrl('https://cdn.shop.dev/a.png')).toBe('https://cdn.shop.dev/a.png')
    expect(safeMediaUrl('mailto:ada@lovelace.dev')).toBeUndefined()
    expect(safeMediaUrl('javascript:alert(1)')).toBeUndefined()
  })
})
