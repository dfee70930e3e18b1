import { describe, expect, test } from 'bun:test'
import { jsonPositions, spanOf } from '../../../app/src/console/flows/json-positions.ts'
import { dayBars } from '../../../app/src/console/chatbots/day-chart.ts'

describe('JSON pointers in the text', () => {
  const text = '{\n  "states": {\n    "hello": {\n      "on": [{ "to": "nowhere" }]\n    }\n  },\n  "a/b": 1\n}'

  /** The text a pointer marks. */
  const marked = (pointer: string) => {
    const span = spanOf(jsonPositions(text), pointer, text)
    return text.slice(span?.from, span?.to)
  }

  test('a plain value is marked itself; an object member by its key', () => {
    expect(marked('/states/hello/on/0/to')).toBe('"nowhere"')
    expect(marked('/states/hello')).toBe('"hello"')
  })

  test('escaped tokens and missing pointers fall back to the nearest known parent', () => {
    expect(marked('/a~1b')).toBe('1')
    expect(marked('/states/hello/on/0/button')).toBe('{ "to": "nowhere" }')
  })

  test('a text mid-edit keeps what was read before the mistake', () => {
    const positions = jsonPositions('{"a": 1, "b": ')
    expect(positions.has('/a')).toBe(true)
  })
})

describe('the 30-day chart', () => {
  test('bars scale to the busiest day and stand on the baseline', () => {
    const { bars, max } = dayBars([{ date: 'd1', conversations: 2 }, { date: 'd2', conversations: 0 }, { date: 'd3', conversations: 4 }], 300, 100)
    expect(max).toBe(4)
    expect(bars.map((bar) => bar.height)).toEqual([50, 0, 100])
    expect(bars.map((bar) => bar.y + bar.height)).toEqual([100, 100, 100])
    expect(bars[2]?.x).toBeCloseTo(201)
  })

  test('thirty empty days draw no bar taller than nothing', () => {
    const { bars } = dayBars(Array.from({ length: 30 }, (_, i) => ({ date: String(i), conversations: 0 })), 600, 140)
    expect(bars.every((bar) => bar.height === 0)).toBe(true)
  })
})
