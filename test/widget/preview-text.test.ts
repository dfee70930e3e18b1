import { describe, expect, test } from 'bun:test'
import { PREVIEW_LENGTH, previewText } from '../../widget/src/preview-text.ts'

describe('the preview of a message shown above the closed launcher', () => {
  test('a text is shown whole when short, white space folded', () => {
    expect(previewText({ kind: 'text', text: '  Hello\n\nthere\t you ' })).toBe('Hello there you')
  })

  test(`a long text is cut to ${PREVIEW_LENGTH} characters, ending in an ellipsis`, () => {
    const shown = previewText({ kind: 'text', text: 'word '.repeat(60) })
    expect(Array.from(shown).length).toBeLessThanOrEqual(PREVIEW_LENGTH)
    expect(shown.endsWith('…')).toBe(true)
    expect(previewText({ kind: 'text', text: 'x'.repeat(PREVIEW_LENGTH) })).toBe('x'.repeat(PREVIEW_LENGTH))
    expect(previewText({ kind: 'text', text: 'x'.repeat(PREVIEW_LENGTH + 1) })).toBe(`${'x'.repeat(PREVIEW_LENGTH - 1)}…`)
  })

  test('an emoji at the cut is kept whole, never half a surrogate pair', () => {
    const shown = previewText({ kind: 'text', text: '😀'.repeat(200) })
    expect(shown).toBe(`${'😀'.repeat(PREVIEW_LENGTH - 1)}…`)
  })

  test('buttons and lists show their text; replies their title; forms their call to action', () => {
    expect(previewText({ kind: 'buttons', text: 'Pick one', buttons: [{ id: 'a', title: 'Sales' }] })).toBe('Pick one')
    expect(previewText({ kind: 'list', text: 'Topics', button: 'Show', sections: [] })).toBe('Topics')
    expect(previewText({ kind: 'reply', reply_to: 'button', id: 'a', title: 'Sales' })).toBe('Sales')
    expect(previewText({ kind: 'meta_flow', flow_id: 'f', cta: 'Book a table' })).toBe('Book a table')
  })

  test('media shows its caption, else its file name, else what kind it is', () => {
    expect(previewText({ kind: 'media', media: { type: 'image', url: 'https://x.test/a.png', caption: 'Our jacket' } })).toBe('Our jacket')
    expect(previewText({ kind: 'media', media: { type: 'file', url: 'https://x.test/s.pdf', filename: 'sizes.pdf' } })).toBe('sizes.pdf')
    expect(previewText({ kind: 'media', media: { type: 'audio', url: 'https://x.test/c.mp3' } })).toBe('Audio')
    expect(previewText({ kind: 'media', media: { type: 'video', url: 'https://x.test/c.mp4' } })).toBe('Video')
  })

  test('markup stays text: the preview is the characters as written', () => {
    expect(previewText({ kind: 'text', text: '<b>bold</b> <img src=x onerror=alert(1)>' })).toBe('<b>bold</b> <img src=x onerror=alert(1)>')
  })
})
