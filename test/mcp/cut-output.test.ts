import { describe, expect, test } from 'bun:test'
import { cutOutput } from '../../server/mcp/cut-output.ts'

describe('cutOutput', () => {
  test('output within the limit is kept whole', () => {
    const content = [{ type: 'text', text: 'short' }]
    expect(cutOutput(content, { a: 1 }, 100)).toEqual({ content, structured_content: { a: 1 }, truncated: false })
  })

  test('a long text keeps two thirds of the room at its start and one third at its end, with a marker', () => {
    const { content, truncated } = cutOutput([{ type: 'text', text: 'a'.repeat(500) + 'z'.repeat(500) }], undefined, 90)
    expect(truncated).toBe(true)
    expect(content[0]?.text).toBe(`${'a'.repeat(60)}\n[… 910 characters of the tool's output cut by Parley …]\n${'z'.repeat(30)}`)
  })

  test('the limit is shared by every block: what comes after a cut is left out with a note', () => {
    const { content } = cutOutput(
      [
        { type: 'text', text: 'x'.repeat(100) },
        { type: 'image', data: 'A'.repeat(1000), mimeType: 'image/png' },
      ],
      { big: 'y'.repeat(1000) },
      150,
    )
    expect(content[0]).toEqual({ type: 'text', text: 'x'.repeat(100) })
    expect(content[1]?.text).toStartWith('[a image block of')
    expect(content[2]?.text).toContain('structured content was left out')
  })

  test('a structured result that fits is kept, and a missing one is null', () => {
    expect(cutOutput([], { n: 1 }, 10).structured_content).toEqual({ n: 1 })
    expect(cutOutput([], undefined, 10).structured_content).toBeNull()
  })
})
