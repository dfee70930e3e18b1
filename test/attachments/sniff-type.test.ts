import { describe, expect, test } from 'bun:test'
import { describeRefused, sniffType } from '../../server/attachments/sniff-type.ts'
import { SAMPLE } from './sample-files.ts'

describe('sniffType', () => {
  test('knows PNG, JPEG, GIF, WebP and PDF by their first bytes', () => {
    expect(sniffType(SAMPLE.png)).toBe('image/png')
    expect(sniffType(SAMPLE.jpeg)).toBe('image/jpeg')
    expect(sniffType(SAMPLE.gif)).toBe('image/gif')
    expect(sniffType(SAMPLE.webp)).toBe('image/webp')
    expect(sniffType(SAMPLE.pdf)).toBe('application/pdf')
  })

  test('refuses SVG, HTML, text, a RIFF that is not WebP and bytes cut short', () => {
    expect(sniffType(SAMPLE.svg)).toBeNull()
    expect(sniffType(SAMPLE.html)).toBeNull()
    expect(sniffType(new TextEncoder().encode('just text'))).toBeNull()
    expect(sniffType(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '))).toBeNull()
    expect(sniffType(SAMPLE.png.subarray(0, 7))).toBeNull()
    expect(sniffType(new Uint8Array())).toBeNull()
  })

  test('a PNG signature later in the file does not count', () => {
    expect(sniffType(new Uint8Array([0x20, ...SAMPLE.png]))).toBeNull()
  })

  test('describes a refused SVG or HTML file for the refusal text', () => {
    expect(describeRefused(SAMPLE.svg)).toBe('an SVG image')
    expect(describeRefused(new TextEncoder().encode('\uFEFF<?xml version="1.0"?>\n<svg/>'))).toBe('an SVG image')
    expect(describeRefused(SAMPLE.html)).toBe('HTML or XML')
    expect(describeRefused(new Uint8Array([1, 2, 3]))).toBeNull()
  })
})

describe('the types the server keeps and the types the widget offers', () => {
  test('are the same list', async () => {
    const { ATTACHMENT_TYPES } = await import('../../server/attachments/model.ts')
    const { UPLOAD_TYPES } = await import('../../server/protocol/upload-rules.ts')
    expect(Object.keys(ATTACHMENT_TYPES).sort()).toEqual([...UPLOAD_TYPES].sort())
  })
})
