import { describe, expect, test } from 'bun:test'
import { safeFilename } from '../../server/attachments/safe-filename.ts'

describe('safeFilename', () => {
  test('keeps an ordinary name and its matching extension', () => {
    expect(safeFilename('Holiday photo.PNG', 'image/png')).toBe('Holiday photo.PNG')
    expect(safeFilename('scan.jpeg', 'image/jpeg')).toBe('scan.jpeg')
    expect(safeFilename('Rechnung März.pdf', 'application/pdf')).toBe('Rechnung März.pdf')
  })

  test('drops folders, control characters, quotes and path or header characters', () => {
    expect(safeFilename('../../etc/passwd.png', 'image/png')).toBe('passwd.png')
    expect(safeFilename('C:\\Users\\me\\cat.gif', 'image/gif')).toBe('cat.gif')
    expect(safeFilename('a"b\'c<d>e\r\nf;g%h.png', 'image/png')).toBe('abcdefgh.png')
    expect(safeFilename('\u202egnp.exe', 'image/png')).toBe('gnp.exe.png')
  })

  test('ends in the extension of what the bytes are, whatever the name claimed', () => {
    expect(safeFilename('page.html', 'image/png')).toBe('page.html.png')
    expect(safeFilename('invoice', 'application/pdf')).toBe('invoice.pdf')
    expect(safeFilename('photo.png', 'image/jpeg')).toBe('photo.png.jpg')
  })

  test('an empty or hidden name becomes "attachment"', () => {
    expect(safeFilename('', 'image/png')).toBe('attachment.png')
    expect(safeFilename('   ', 'application/pdf')).toBe('attachment.pdf')
    expect(safeFilename('.png', 'image/png')).toBe('png.png')
    expect(safeFilename('...', 'image/webp')).toBe('attachment.webp')
  })

  test('is at most 200 characters, the extension kept, no half surrogate pair', () => {
    const long = safeFilename(`${'x'.repeat(500)}.pdf`, 'application/pdf')
    expect(long.length).toBe(200)
    expect(long.endsWith('.pdf')).toBe(true)
    const emoji = safeFilename(`${'😀'.repeat(150)}.png`, 'image/png')
    expect(emoji.length).toBeLessThanOrEqual(200)
    expect(emoji.endsWith('.png')).toBe(true)
    expect(emoji.isWellFormed()).toBe(true)
  })
})
