import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { AA_NON_TEXT, AA_TEXT, checkPrimaryColour, contrastRatio, luminance } from '../../../app/src/console/widget/contrast.ts'

const hex = fc.integer({ min: 0, max: 0xffffff }).map((value) => `#${value.toString(16).padStart(6, '0')}`)

describe('the widget builder: contrast of the primary colour (WCAG 2.1)', () => {
  test('relative luminance and contrast ratios as WCAG defines them', () => {
    expect(luminance('#000000')).toBe(0)
    expect(luminance('#ffffff')).toBeCloseTo(1, 10)
    expect(luminance('#fff')).toBe(luminance('#ffffff'))
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10)
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 10)
    expect(contrastRatio('#777777', '#777')).toBe(1)
    // Known pairs (WebAIM's contrast checker gives the same to two decimals).
    expect(contrastRatio('#0066ff', '#ffffff')).toBeCloseTo(4.83, 2)
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
    expect(contrastRatio('#ffff00', '#ffffff')).toBeCloseTo(1.07, 2)
  })

  test('the default blue passes: white text on it, readable on white', () => {
    expect(checkPrimaryColour('#0066ff')).toMatchObject({ text: '#ffffff', warnings: [] })
  })

  test('a pale colour is flagged: its focus ring and borders vanish on the chat background', () => {
    const yellow = checkPrimaryColour('#ffee00')
    expect(yellow.text).toBe('#000000')
    expect(yellow.textRatio).toBeGreaterThan(AA_TEXT)
    expect(yellow.backgroundRatio).toBeLessThan(AA_NON_TEXT)
    expect(yellow.warnings).toEqual([expect.stringContaining("have a contrast of 1.2:1 on the chat's background; WCAG AA asks for 3:1")])
    // The same yellow on a dark chat background is fine.
    expect(checkPrimaryColour('#ffee00', '#111827').warnings).toEqual([])
    // A dark colour on a dark background is flagged the other way.
    expect(checkPrimaryColour('#1e3a8a', '#111827').warnings).toHaveLength(1)
  })

  test('the ratio shown is rounded down, never up to a passing value', () => {
    // #959595 on white is 2.99:1: shown as 2.9, not 3.0.
    const grey = checkPrimaryColour('#959595')
    expect(grey.backgroundRatio).toBeLessThan(3)
    expect(grey.warnings[0]).toContain('2.9:1')
  })

  test("the widget's own text colour (black or white, the better) always meets 4.5:1 on any primary colour", () => {
    // Why the text warning is a guard and not an everyday sight: the worst case, where black and white
    // are equally good, is about 4.58:1. The warning stays for colours a future text setting could bring.
    fc.assert(
      fc.property(hex, (primary) => {
        const check = checkPrimaryColour(primary)
        expect(check.textRatio).toBeGreaterThanOrEqual(AA_TEXT)
        expect(check.warnings.some((warning) => warning.startsWith('Text on this colour'))).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })
})
