import { describe, expect, test } from 'bun:test'
import { parseNumber } from '../../server/engine/parse-number.ts'

describe('parseNumber reads numbers as people type them', () => {
  test.each([
    ['42', 42],
    ['+42', 42],
    ['-42', -42],
    ['\u221242', -42],
    [' 007 ', 7],
    ['0', 0],
    ['-0', 0],
    ['3.5', 3.5],
    ['.5', 0.5],
    ['3,5', 3.5],
    ['3,25', 3.25],
    ['3,2500', 3.25],
    ['1,500', 1500],
    ['1,234,567.89', 1234567.89],
    ['1.234,5', 1234.5],
    ['1.234.567', 1234567],
    ['1.234', 1.234],
    ['1 500', 1500],
    ['1\u00a0500,5', 1500.5],
    ["1'000'000", 1000000],
  ])('%p is %p', (raw, value) => {
    expect(parseNumber(raw)).toBe(value)
  })

  test.each(['', ' ', 'forty two', '42 kg', '$42', '42€', '1e3', 'Infinity', 'NaN', '0x10', '1,2,3', '1.2.3', '12 34', '1 5000', '--1', '1-', '4 2 0', '1,50,000', '9'.repeat(40)])(
    '%p is not a number',
    (raw) => {
      expect(parseNumber(raw)).toBeNull()
    },
  )
})
