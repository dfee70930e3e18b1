import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { fileSizeText, fileTooLargeText } from '../../server/protocol/file-size-text.ts'

const KIB = 1024
const MIB = 1024 * 1024

/** The bytes a text stands for: what a person reading it understands. */
function bytesRead(text: string): number {
  const [, value, unit] = text.match(/^(\d+(?:\.\d)?) (bytes?|KiB|MiB)$/) ?? []
  if (!value || !unit) throw new Error(`not a size: ${text}`)
  return Number(value) * (unit === 'KiB' ? KIB : unit === 'MiB' ? MIB : 1)
}

describe('file sizes as the server and the widget both write them', () => {
  test('bytes below a KiB, then KiB and MiB to one decimal, a whole number without its ".0"', () => {
    expect(fileSizeText(1)).toBe('1 byte')
    expect(fileSizeText(512)).toBe('512 bytes')
    expect(fileSizeText(KIB)).toBe('1 KiB')
    expect(fileSizeText(3.5 * KIB)).toBe('3.5 KiB')
    expect(fileSizeText(10 * MIB)).toBe('10 MiB')
    expect(fileSizeText(100 * MIB, 'down')).toBe('100 MiB')
  })

  test('a file rounds up and a limit rounds down, so a file one byte over a limit never reads as the limit', () => {
    expect(fileSizeText(10 * MIB + 1)).toBe('10.1 MiB')
    expect(fileSizeText(10 * MIB + 1, 'down')).toBe('10 MiB')
    expect(fileSizeText(2049)).toBe('2.1 KiB')
    // PARLEY_ATTACHMENT_MAX_BYTES=10000000 (decimal megabytes) is 9.54 MiB: it does not read as more.
    expect(fileSizeText(10_000_000, 'down')).toBe('9.5 MiB')
    expect(fileSizeText(10_000_000)).toBe('9.6 MiB')
    // Just under a MiB, rounded up: 1 MiB, not 1024 KiB.
    expect(fileSizeText(MIB - 6)).toBe('1 MiB')
    expect(fileSizeText(MIB - 6, 'down')).toBe('1023.9 KiB')
  })

  test('for any limit and any file over it, the file reads at least its size, the limit at most its own, and the file larger', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 * MIB }), fc.integer({ min: 1, max: 20 * MIB }), (limit, over) => {
        const file = limit + over
        expect(bytesRead(fileSizeText(file))).toBeGreaterThanOrEqual(file)
        expect(bytesRead(fileSizeText(limit, 'down'))).toBeLessThanOrEqual(limit)
        expect(bytesRead(fileSizeText(file))).toBeGreaterThan(bytesRead(fileSizeText(limit, 'down')))
      }),
      { numRuns: 2000 },
    )
  })

  test('the refusal names the size when it is known', () => {
    expect(fileTooLargeText(10 * MIB, 10 * MIB + 200 * KIB)).toBe('the file is 10.2 MiB; files may be at most 10 MiB')
    expect(fileTooLargeText(10 * MIB)).toBe('the file is too large; files may be at most 10 MiB')
  })
})
