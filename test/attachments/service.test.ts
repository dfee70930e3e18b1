import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { attachmentService } from '../../server/attachments/service.ts'
import { sqliteUnits } from '../../server/db/sqlite-units.ts'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import type { ApiError } from '../../server/http/api-error.ts'
import { sqliteStores } from '../../server/stores.ts'
import { testApp, type TestApp } from '../support/test-app.ts'
import { committed, conversationWithFiles } from './conversation-with-files.ts'
import { SAMPLE } from './sample-files.ts'

let app: TestApp
let place: Awaited<ReturnType<typeof conversationWithFiles>>

// A fresh app loads the whole server: generous on a busy machine.
beforeAll(() => {
  app = testApp({ PARLEY_ATTACHMENT_MAX_BYTES: '2048' })
}, 30_000)
beforeEach(async () => {
  place = await conversationWithFiles(app)
})
afterAll(() => app.close())

const input = (bytes: Uint8Array, filename = 'file') => ({
  workspaceId: place.workspaceId,
  chatbotId: place.chatbotId,
  conversationId: place.conversationId,
  role: 'visitor' as const,
  filename,
  bytes,
})

function refusal(run: () => unknown): Pick<ApiError, 'status' | 'code' | 'detail'> {
  try {
    run()
  } catch (error) {
    const { status, code, detail } = error as ApiError
    return { status, code, detail }
  }
  throw new Error('expected a refusal')
}

async function refusedWith(answer: Promise<unknown>): Promise<Pick<ApiError, 'status' | 'code' | 'detail'>> {
  try {
    await answer
  } catch (error) {
    const { status, code, detail } = error as ApiError
    return { status, code, detail }
  }
  throw new Error('expected a refusal')
}

describe('attachments.save', () => {
  test('stores the file and answers the media content whose address serves it', async () => {
    const saved = app.services.attachments.save(input(SAMPLE.png, 'cat.png'))
    expect(saved.attachment).toMatchObject({ conversation_id: place.conversationId, content_type: 'image/png', byte_size: SAMPLE.png.byteLength, filename: 'cat.png', uploaded_by: 'visitor' })
    expect(saved.attachment.sha256).toBe(new Bun.CryptoHasher('sha256').update(SAMPLE.png).digest('hex'))
    const { media } = saved.content
    expect(saved.content.kind).toBe('media')
    expect(media.type).toBe('image')
    expect(media.filename).toBe('cat.png')
    expect(media.url).toMatch(new RegExp(`^http://parley\\.test/attachments/${saved.attachment.id}/[0-9A-Za-z]{32}/cat\\.png$`))
    await committed()
    const key = media.url.split('/')[5] as string
    expect((await app.services.attachments.open(saved.attachment.id, key)).bytes).toEqual(SAMPLE.png)
  })

  test('a PDF is a file; its address keeps an odd name readable', () => {
    const saved = app.services.attachments.save(input(SAMPLE.pdf, 'Rechnung März #3.pdf'))
    expect(saved.content.media).toMatchObject({ type: 'file', filename: 'Rechnung März #3.pdf' })
    expect(saved.content.media.url.endsWith('/Rechnung%20M%C3%A4rz%20%233.pdf')).toBe(true)
  })

  test('keeps only the digest of the key: the database alone does not open a file', async () => {
    const saved = app.services.attachments.save(input(SAMPLE.gif))
    await committed()
    const key = saved.content.media.url.split('/')[5] as string
    const row = app.db.query<{ key_hash: string }, [string]>('SELECT key_hash FROM attachments WHERE id = ?').get(saved.attachment.id)!
    expect(row.key_hash).toBe(new Bun.CryptoHasher('sha256').update(key).digest('hex'))
    expect(JSON.stringify(app.db.query('SELECT * FROM attachments').all())).not.toContain(key)
  })

  test('refuses SVG and HTML whatever they are called, saying which types are allowed', () => {
    for (const [bytes, looks] of [[SAMPLE.svg, 'an SVG image'], [SAMPLE.html, 'HTML or XML']] as const) {
      expect(refusal(() => app.services.attachments.save(input(bytes, 'innocent.png')))).toEqual({
        status: 415,
        code: 'attachment_type_refused',
        detail: `only PNG, JPEG, GIF or WebP images and PDF files can be sent; this file is ${looks}`,
      })
    }
    expect(refusal(() => app.services.attachments.save(input(new TextEncoder().encode('hello'), 'notes.pdf'))).detail).toBe(
      'only PNG, JPEG, GIF or WebP images and PDF files can be sent',
    )
  })

  test('refuses a file over PARLEY_ATTACHMENT_MAX_BYTES, and an empty one', () => {
    const big = new Uint8Array(2049)
    big.set(SAMPLE.png)
    expect(refusal(() => app.services.attachments.save(input(big)))).toEqual({ status: 413, code: 'attachment_too_large', detail: 'the file is 2.1 KiB; files may be at most 2 KiB' })
    expect(refusal(() => app.services.attachments.save(input(new Uint8Array())))).toMatchObject({ status: 400, code: 'attachment_empty' })
    const exact = new Uint8Array(2048)
    exact.set(SAMPLE.png)
    expect(app.services.attachments.save(input(exact)).attachment.byte_size).toBe(2048)
  })

  test('refuses past the conversation\'s limits on files and on bytes together, counting files not yet committed', async () => {
    // Its own group-commit batcher: the three saves share one open batch, not committed yet.
    const batch = writeBatcher(app.db, (error) => {
      throw error
    })
    const stores = sqliteStores(app.db)
    const units = sqliteUnits(batch, stores)
    const service = attachmentService({ stores, units, now: () => 'now', publicUrl: 'http://x', maxBytes: 1 << 20, conversationLimits: { files: 2, bytes: 1 << 20 } })
    service.save(input(SAMPLE.png))
    service.save(input(SAMPLE.png))
    expect(refusal(() => service.save(input(SAMPLE.png)))).toEqual({ status: 413, code: 'attachment_limit_reached', detail: 'this conversation already holds 2 files, the most it may' })

    await committed()
    const byBytes = attachmentService({ stores, units, now: () => 'now', publicUrl: 'http://x', maxBytes: 1 << 20, conversationLimits: { files: 100, bytes: 2 * SAMPLE.png.byteLength + 10 } })
    expect(refusal(() => byBytes.save(input(SAMPLE.png))).code).toBe('attachment_limit_reached')
    // Another conversation has its own allowance.
    const other = await conversationWithFiles(app)
    expect(byBytes.save({ ...input(SAMPLE.png), chatbotId: other.chatbotId, conversationId: other.conversationId }).attachment.conversation_id).toBe(other.conversationId)
  })

  test('prepare checks without storing; write stores it in the conversation given then', async () => {
    const prepared = app.services.attachments.prepare({ ...input(SAMPLE.pdf, 'a.pdf'), conversationId: null })
    await committed()
    expect(app.db.query('SELECT count(*) AS n FROM attachments WHERE conversation_id = ?').get(place.conversationId)).toEqual({ n: 0 })
    prepared.write(place.conversationId)
    await committed()
    expect((await app.services.attachments.get(place.workspaceId, prepared.attachment.id)).conversation_id).toBe(place.conversationId)
  })
})

describe('attachments.open, get and bytes', () => {
  test('a wrong key, an unknown id and another workspace all answer 404', async () => {
    const saved = app.services.attachments.save(input(SAMPLE.png))
    await committed()
    const key = saved.content.media.url.split('/')[5] as string
    const wrongKey = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`
    expect(await refusedWith(app.services.attachments.open(saved.attachment.id, wrongKey))).toMatchObject({ status: 404, code: 'not_found' })
    expect(await refusedWith(app.services.attachments.open(saved.attachment.id, ''))).toMatchObject({ status: 404 })
    expect(await refusedWith(app.services.attachments.open('01JUNKNOWN0000000000000000', key))).toMatchObject({ status: 404 })
    expect((await app.services.attachments.get(place.workspaceId, saved.attachment.id)).id).toBe(saved.attachment.id)
    expect(await app.services.attachments.bytes(place.workspaceId, saved.attachment.id)).toEqual(SAMPLE.png)
    expect(await refusedWith(app.services.attachments.get('another-workspace', saved.attachment.id))).toMatchObject({ status: 404 })
    expect(await refusedWith(app.services.attachments.bytes('another-workspace', saved.attachment.id))).toMatchObject({ status: 404 })
  })
})
