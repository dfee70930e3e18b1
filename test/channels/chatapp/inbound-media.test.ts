import { afterEach, describe, expect, test } from 'bun:test'
import { SAMPLE } from '../../attachments/sample-files.ts'
import { nextWamid, postWebhook, setUpChatappChat, userMessage, webhook } from './support/chatapp-chat.ts'
import { type ChatappTestbed, chatappTestbed, USER } from './support/chatapp-test.ts'

let bed: ChatappTestbed | null = null
afterEach(async () => {
  await bed?.close()
  bed = null
})

const image = (id: string, caption?: string) => ({ type: 'image', image: { id, mime_type: 'image/png', sha256: 'ignored', ...(caption ? { caption } : {}) } })
const document = (id: string, filename: string) => ({ type: 'document', document: { id, mime_type: 'application/pdf', filename } })

async function chatWithBed() {
  bed = chatappTestbed()
  const chat = await setUpChatappChat(bed.app, bed.graph)
  return { b: bed, chat }
}

/** The user's stored messages of the chat's only conversation, and that conversation's id. */
async function visitorMessages(b: ChatappTestbed, chat: Awaited<ReturnType<typeof setUpChatappChat>>) {
  const [conversation] = (await b.app.call('GET', chat.path('/conversations?channel=chatapp'))).body.items
  const items = (await b.app.call('GET', chat.path(`/conversations/${conversation.id}/messages?limit=200`))).body.items as any[]
  return { conversationId: conversation.id as string, messages: items.filter((message) => message.role === 'visitor') }
}

const attachmentCount = (b: ChatappTestbed) => (b.app.db.query('SELECT count(*) AS n FROM attachments').get() as { n: number }).n

/** The user's only message is the text it was before files were kept; no file stored; the warning says why. */
async function expectKeptAsText(b: ChatappTestbed, chat: Awaited<ReturnType<typeof setUpChatappChat>>, text: string, reason: 'not downloaded' | 'refused') {
  const { messages } = await visitorMessages(b, chat)
  expect(messages.map((message) => message.content)).toEqual([{ kind: 'text', text }])
  expect(attachmentCount(b)).toBe(0)
  expect(b.app.logLines.join('\n')).toContain(`chatapp media kept as text: ${reason}`)
}

describe('a picture or document from the messaging app', () => {
  test('is downloaded with the access token and stored as a media message; the flow reads its caption, the address serves the bytes', async () => {
    const { b, chat } = await chatWithBed()
    const mediaId = b.graph.addMedia(chat.phoneNumberId, SAMPLE.png, 'image/png')
    const posted = await postWebhook(b.app, chat, userMessage(chat, USER, image(mediaId, 'the dent')))
    expect(posted.status).toBe(200)
    expect(posted.body.messages).toEqual({ stored: 1, duplicates: 0 })
    expect(b.graph.mediaRequests.map((request) => [request.path.replace(mediaId, '{id}'), request.headers.authorization, request.status])).toEqual([
      ['/v21.0/{id}', `Bearer ${chat.accessToken}`, 200],
      ['/media-files/{id}', `Bearer ${chat.accessToken}`, 200],
    ])
    const { messages } = await visitorMessages(b, chat)
    expect(messages).toHaveLength(1)
    expect(messages[0].content).toMatchObject({ kind: 'media', media: { type: 'image', caption: 'the dent' } })
    const served = await b.app.fetch(new Request(`http://localhost${new URL(messages[0].content.media.url).pathname}`))
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(SAMPLE.png)
    // The desk finds it as the flow reads it: by its caption.
    await b.app.services.deskSearch.caughtUp()
    const found = (await b.app.call('GET', '/api/dev/v1/desk/conversations?view=open&q=dent')).body.items
    expect(found.map((row: { id: string }) => row.id)).toEqual([messages[0].conversation_id])
  })

  test('a document keeps its file name and is a file', async () => {
    const { b, chat } = await chatWithBed()
    const mediaId = b.graph.addMedia(chat.phoneNumberId, SAMPLE.pdf, 'application/pdf')
    await postWebhook(b.app, chat, userMessage(chat, USER, document(mediaId, 'Contract.pdf')))
    const { messages } = await visitorMessages(b, chat)
    expect(messages[0].content).toEqual({ kind: 'media', media: { type: 'file', url: expect.stringContaining('/attachments/'), filename: 'Contract.pdf' } })
  })

  test('a media the provider does not have any more falls back to the text it was before, and the message is kept', async () => {
    const { b, chat } = await chatWithBed()
    const posted = await postWebhook(b.app, chat, userMessage(chat, USER, image('9999999999', 'gone')))
    expect(posted.status).toBe(200)
    expect(posted.body.messages).toEqual({ stored: 1, duplicates: 0 })
    await expectKeptAsText(b, chat, '[image] gone', 'not downloaded')
  })

  test('a file that is not what Parley keeps (HTML served as a picture) is refused and kept as text', async () => {
    const { b, chat } = await chatWithBed()
    const mediaId = b.graph.addMedia(chat.phoneNumberId, SAMPLE.html, 'image/jpeg')
    await postWebhook(b.app, chat, userMessage(chat, USER, image(mediaId, 'look')))
    await expectKeptAsText(b, chat, '[image] look', 'refused')
  })

  test('a retried webhook, even while the first is still downloading, stores one message and one file', async () => {
    const { b, chat } = await chatWithBed()
    const mediaId = b.graph.addMedia(chat.phoneNumberId, SAMPLE.png, 'image/png')
    const body = userMessage(chat, USER, image(mediaId))
    const [first, second] = await Promise.all([postWebhook(b.app, chat, body), postWebhook(b.app, chat, body)])
    const third = await postWebhook(b.app, chat, body)
    expect([first.body.messages, second.body.messages, third.body.messages]).toEqual([
      { stored: 1, duplicates: 0 },
      { stored: 0, duplicates: 1 },
      { stored: 0, duplicates: 1 },
    ])
    const { messages } = await visitorMessages(b, chat)
    expect(messages).toHaveLength(1)
    expect(messages[0].content.kind).toBe('media')
    expect(attachmentCount(b)).toBe(1)
    // Downloaded once: the retry waited for the first, then found it stored.
    expect(b.graph.mediaRequests).toHaveLength(2)
  })

  test('the pictures of one webhook are fetched at once, a few at a time, and stored in the order the webhook gives them', async () => {
    const { b, chat } = await chatWithBed()
    const captions = ['one', 'two', 'three', 'four', 'five', 'six']
    const messages = captions.map((caption) => ({ from: USER, id: nextWamid(), timestamp: '1768470000', ...image(b.graph.addMedia(chat.phoneNumberId, SAMPLE.png, 'image/png'), caption) }))
    // Each media request waits until 4 wait together (or 500 ms pass), then they are answered last first.
    b.graph.holdMediaUntil(4)
    const posted = await postWebhook(b.app, chat, webhook(chat.phoneNumberId, { contacts: [{ profile: { name: 'Ada' }, wa_id: USER }], messages }))
    expect(posted.body.messages).toEqual({ stored: 6, duplicates: 0 })
    // One after the other, the fake would never see more than one request at a time.
    expect(b.graph.peakMediaInFlight()).toBe(4)
    expect(b.graph.mediaRequests).toHaveLength(12)
    const { messages: stored } = await visitorMessages(b, chat)
    expect(stored.map((message) => message.content.media?.caption)).toEqual(captions)
    expect(attachmentCount(b)).toBe(6)
  })
})
