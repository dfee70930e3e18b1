import { afterEach, describe, expect, test } from 'bun:test'
import { listen } from '../../../server/listen.ts'
import { SAMPLE } from '../../attachments/sample-files.ts'
import { deskUpload } from '../../desk/support/desk-upload.ts'
import { freePort } from '../../support/free-port.ts'
import { buttonPick, setUpChatappChat, text } from './support/chatapp-chat.ts'
import { type ChatappTestbed, chatappTestbed } from './support/chatapp-test.ts'

let bed: ChatappTestbed | null = null
let stopServer: (() => void) | null = null
afterEach(async () => {
  stopServer?.()
  await bed?.close()
  bed = stopServer = null
})

/** A testbed whose public URL is where it listens, so the fake provider can download the links Parley gives it. */
function listeningBed() {
  const port = freePort()
  bed = chatappTestbed({ PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}` })
  const server = listen(bed.app, { port, hostname: '127.0.0.1' })
  stopServer = () => server.stop(true)
  bed.graph.fetchMediaLinks()
  return bed
}

/** A chatapp conversation handed to a person, its id. */
async function handedOff(b: ChatappTestbed) {
  const chat = await setUpChatappChat(b.app, b.graph)
  await b.say(chat, text('Hi'))
  await b.say(chat, buttonPick('support', 'Support', b.wamidOf('[buttons] Pick one')))
  const [conversation] = (await b.app.call('GET', chat.path('/conversations?channel=chatapp'))).body.items
  return { chat, conversationId: conversation.id as string }
}

async function sendFile(b: ChatappTestbed, conversationId: string, bytes: Uint8Array, filename: string) {
  const response = await deskUpload(b.app, conversationId, bytes, { filename })
  expect(response.status).toBe(201)
  return response.body as { id: string; content: { media: { url: string } } }
}

describe("an agent's file reaches the messaging app", () => {
  test('a picture goes as an image message whose link is the public address of the file, which the provider downloads', async () => {
    const b = listeningBed()
    const { chat, conversationId } = await handedOff(b)
    const sent = await sendFile(b, conversationId, SAMPLE.png, 'receipt.png')
    const [message] = await b.sent().then(() => b.graph.accepted().slice(-1))
    expect(message).toMatchObject({ type: 'image', image: { link: sent.content.media.url } })
    expect(sent.content.media.url).toStartWith(`http://127.0.0.1:${new URL(sent.content.media.url).port}/attachments/`)
    expect(b.graph.downloads).toHaveLength(1)
    expect(b.graph.downloads[0]).toMatchObject({ status: 200, contentType: 'image/png' })
    expect(b.graph.downloads[0]?.bytes).toEqual(SAMPLE.png)
    const log = (await b.app.call('GET', chat.path(`/integrations/chatapp/deliveries?conversation_id=${conversationId}&limit=1`))).body.items
    expect(log[0]).toMatchObject({ message_id: sent.id, status: 'accepted', type: 'image' })
  })

  test('a PDF goes as a document with its file name', async () => {
    const b = listeningBed()
    const { conversationId } = await handedOff(b)
    const sent = await sendFile(b, conversationId, SAMPLE.pdf, 'Invoice 4711.pdf')
    await b.sent()
    expect(b.graph.accepted().at(-1)).toMatchObject({ type: 'document', document: { link: sent.content.media.url, filename: 'Invoice 4711.pdf' } })
    expect(b.graph.downloads[0]).toMatchObject({ status: 200, contentType: 'application/pdf' })
    expect(b.graph.downloads[0]?.bytes).toEqual(SAMPLE.pdf)
  })
})
