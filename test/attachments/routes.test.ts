import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { dirname, join } from 'node:path'
import { backup } from '../../server/cli/backup.ts'
import { testApp, type TestApp } from '../support/test-app.ts'
import { committed, conversationWithFiles, pathOf } from './conversation-with-files.ts'
import { SAMPLE } from './sample-files.ts'

let app: TestApp
let place: Awaited<ReturnType<typeof conversationWithFiles>>

// A fresh app loads the whole server: generous on a busy machine.
beforeAll(async () => {
  app = testApp()
  place = await conversationWithFiles(app)
}, 30_000)
afterAll(() => app.close())

async function saved(bytes: Uint8Array, filename: string) {
  const result = app.services.attachments.save({ workspaceId: place.workspaceId, chatbotId: place.chatbotId, conversationId: place.conversationId, role: 'visitor', filename, bytes })
  await committed()
  return result
}

describe('GET /attachments/{id}/{key}/{filename}', () => {
  test('serves a picture inline, as its recognised type, never sniffed, sandboxed, readable from other origins', async () => {
    const { attachment, content } = await saved(SAMPLE.png, 'red dot.png')
    const answer = await app.call('GET', pathOf(content.media.url), { key: null })
    expect(answer.status).toBe(200)
    const body = await app.fetch(new Request(`http://localhost${pathOf(content.media.url)}`))
    expect(new Uint8Array(await body.arrayBuffer())).toEqual(SAMPLE.png)
    expect(Object.fromEntries(['content-type', 'x-content-type-options', 'content-security-policy', 'content-disposition', 'cross-origin-resource-policy', 'cache-control', 'etag'].map((name) => [name, answer.headers.get(name)]))).toEqual({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': `inline; filename="red dot.png"; filename*=UTF-8''red%20dot.png`,
      'cross-origin-resource-policy': 'cross-origin',
      'cache-control': 'private, max-age=86400',
      etag: `"${attachment.sha256}"`,
    })
  })

  test('serves a PDF as a download, its name in both spellings', async () => {
    const { content } = await saved(SAMPLE.pdf, 'Rechnung März.pdf')
    const answer = await app.call('GET', pathOf(content.media.url), { key: null })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/pdf')
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`)
    expect(answer.text.startsWith('%PDF-')).toBe(true)
  })

  test("the request log keeps the file's id, never its key or name", async () => {
    const { content, attachment } = await saved(SAMPLE.png, 'private-name.png')
    const key = content.media.url.split('/')[5] as string
    await app.call('GET', pathOf(content.media.url), { key: null })
    await app.call('GET', `/attachments/${attachment.id}/${key}x/private-name.png`, { key: null })
    const lines = app.logLines.filter((line) => line.includes(attachment.id))
    expect(lines.length).toBe(2)
    expect(lines.join('\n')).not.toContain(key)
    expect(lines.join('\n')).not.toContain('private-name')
    expect(lines[0]).toContain(`/attachments/${attachment.id}/...`)
  })

  test('answers 304 to the ETag it gave', async () => {
    const { content, attachment } = await saved(SAMPLE.gif, 'a.gif')
    const answer = await app.call('GET', pathOf(content.media.url), { key: null, headers: { 'if-none-match': `"${attachment.sha256}"` } })
    expect(answer.status).toBe(304)
    expect(answer.text).toBe('')
  })

  test('a wrong key or an unknown id answer the same problem+json 404; the name in the address does not matter', async () => {
    const { content, attachment } = await saved(SAMPLE.png, 'x.png')
    const [, , id, key] = pathOf(content.media.url).split('/') as string[]
    expect((await app.call('GET', `/attachments/${id}/${key}/any-name.png`, { key: null })).status).toBe(200)
    for (const path of [`/attachments/${id}/${(key as string).toLowerCase()}/x.png`, `/attachments/${id}/short/x.png`, `/attachments/01JZZZZZZZZZZZZZZZZZZZZZZZ/${key}/x.png`]) {
      const answer = await app.call('GET', path, { key: null })
      expect(answer.status).toBe(404)
      expect(answer.headers.get('content-type')).toStartWith('application/problem+json')
      expect(answer.body).toMatchObject({ code: 'not_found', detail: 'attachment not found' })
      expect(answer.text).not.toContain(attachment.sha256)
    }
  })

  test("a backup (VACUUM INTO, what `parley backup` writes) holds the files' bytes", async () => {
    const { attachment } = await saved(SAMPLE.pdf, 'kept.pdf')
    const copy = backup(app.db.filename, join(dirname(app.db.filename), 'backups', 'copy.db'))
    const restored = new Database(copy, { readonly: true })
    try {
      const row = restored.query<{ filename: string; bytes: Uint8Array }, [string]>('SELECT filename, bytes FROM attachments WHERE id = ?').get(attachment.id)
      expect(row).toEqual({ filename: 'kept.pdf', bytes: SAMPLE.pdf })
    } finally {
      restored.close()
    }
  })

  test("deleting the chatbot takes its conversations' files: their addresses answer 404", async () => {
    const other = await conversationWithFiles(app)
    const { content } = app.services.attachments.save({ workspaceId: other.workspaceId, chatbotId: other.chatbotId, conversationId: other.conversationId, role: 'visitor', filename: 'gone.png', bytes: SAMPLE.png })
    await committed()
    expect((await app.call('GET', pathOf(content.media.url), { key: null })).status).toBe(200)
    expect((await app.call('DELETE', `/api/dev/v1/chatbots/${other.chatbotId}`)).status).toBe(204)
    expect((await app.call('GET', pathOf(content.media.url), { key: null })).status).toBe(404)
  })
})
