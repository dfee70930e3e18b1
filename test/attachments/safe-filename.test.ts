import { describe, expect, test } from 'bun:test'
import type { AttachmentType } from '../../server/attachments/model.ts'
import { safeFilename } from '../../server/attachments/safe-filename.ts'

const cases: [string, [raw: string, type: AttachmentType, expected: string][]][] = [
  [
    'keeps an ordinary name and its matching extension',
    [
      ['Holiday photo.PNG', 'image/png', 'Holiday photo.PNG'],
      ['scan.jpeg', 'image/jpeg', 'scan.jpeg'],
      ['Rechnung März.pdf', 'application/pdf', 'Rechnung März.pdf'],
    ],
  ],
  [
    'drops folders, control characters, quotes and path or header characters',
    [
      ['../../etc/passwd.png', 'image/png', 'passwd.png'],
      ['C:\\Users\\me\\cat.gif', 'image/gif', 'cat.gif'],
      ['a"b\'c<d>e\r\nf;g%h.png', 'image/png', 'abcdefgh.png'],
      ['\u202egnp.exe', 'image/png', 'gnp.exe.png'],
    ],
  ],
  [
    'ends in the extension of what the bytes are, whatever the name claimed',
    [
      ['page.html', 'image/png', 'page.html.png'],
      ['invoice', 'application/pdf', 'invoice.pdf'],
      ['photo.png', 'image/jpeg', 'photo.png.jpg'],
    ],
  ],
  [
    'an empty or hidden name becomes "attachment"',
    [
      ['', 'image/png', 'attachment.png'],
      ['   ', 'application/pdf', 'attachment.pdf'],
      ['.png', 'image/png', 'png.png'],
      ['...', 'image/webp', 'attachment.webp'],
    ],
  ],
]

describe('safeFilename', () => {
  for (const [behaviour, table] of cases) {
    test(behaviour, () => {
      for (const [raw, type, expected] of table) expect(safeFilename(raw, type)).toBe(expected)
    })
  }

  test('is at most 200 characters, the extension kept, no half surrogate pair', () => {
    const long = safeFilename(`${'x'.repeat(500)}.pdf`, 'application/pdf')
    expect(long.length).toBe(200)
    expect(long.endsWith('.pdf')).toBe(true)
    const emoji = safeFilename(`${'😀'.repeat(150)}.png`, 'image/png')
    expect(emoji.length).toBeLessThanOrEqual(200)
    expect(emoji.endsWith('.png')).toBe(true)
    expect(emoji.isWellFormed()).toBe(true)
    // One letter first, so the cut falls inside a pair: its high half is dropped.
    const odd = safeFilename(`x${'😀'.repeat(150)}.png`, 'image/png')
    expect(odd).toBe(`x${'😀'.repeat(97)}.png`)
    expect(odd.isWellFormed()).toBe(true)
  })
})
