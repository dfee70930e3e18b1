import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { SAMPLE } from '../attachments/sample-files.ts'
import { nextWamid, webhook } from '../channels/chatapp/support/chatapp-chat.ts'
import { fakeGraphApi } from '../channels/chatapp/support/fake-graph-api.ts'
import { webhookReceiver, type WebhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { HANDOFF_FLOW } from './support/desk-bed.ts'
import { deskSuite } from './support/desk-suite.ts'
import { waitUntil } from './support/widget-page.ts'

/**
 * An agent's file sent from the desk in Chromium reaches the visitor on the other channels too:
 * the rest-api's webhook receiver and the messaging app (the fake provider downloads the link,
 * as the real one does), both fetching the file from the compiled binary. The other way, a
 * rest-api user's base64 file and a messaging-app user's picture (downloaded from the provider
 * by the binary) are stored and show on the desk.
 */
describe("an agent's file from the desk, to the rest-api webhook and the messaging app (Chromium, compiled binary)", () => {
  const graph = fakeGraphApi()
  const suite = deskSuite({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url })
  let receiver: WebhookReceiver
  beforeAll(() => {
    receiver = webhookReceiver()
    graph.fetchMediaLinks()
  })
  afterAll(() => {
    receiver?.stop()
    graph.stop()
  })

  async function attachFromDesk(conversationId: string): Promise<void> {
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversationId}`)
    await ada.messagesWhen((shown) => shown.some((message) => message.role === 'visitor'), 'the history')
    await ada.page.locator('[data-testid="attach-input"]').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: Buffer.from(SAMPLE.png) })
    await waitUntil(async () => (await ada.page.locator('.message.agent img').count()) === 1, 'the desk shows the picture it sent')
    expect(ada.pageErrors()).toEqual([])
  }

  /** The visitor's pictures on a desk page: their address, and whether they loaded. */
  const visitorPictures = (page: Page) =>
    page.evaluate(() => [...document.querySelectorAll<HTMLImageElement>('.message.visitor img')].map((image) => ({ src: image.src, loaded: image.complete && image.naturalWidth > 0 })))

  const fetched = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer())

  test('the rest-api webhook gets the media message, and its address serves the file', async () => {
    const chatbotId = await suite.bed.chatbot('API shop', HANDOFF_FLOW)
    await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api`, { webhook_url: receiver.url, name: 'Back office' })
    const opened = await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api/messages`, { user_id: 'user-7', text: 'send me the label' })
    await attachFromDesk(opened.conversation_id)

    const isMedia = (got: (typeof receiver.received)[number]) => got.json?.type === 'message.created' && got.json.data.message.content.kind === 'media'
    await waitUntil(async () => receiver.received.some(isMedia), 'the webhook receiver gets the file')
    const event = receiver.received.find(isMedia)!
    expect(event.json.data).toMatchObject({ conversation_id: opened.conversation_id, message: { role: 'agent', content: { media: { type: 'image', filename: 'label.png' } } } })
    const url = event.json.data.message.content.media.url as string
    expect(url).toStartWith(`${suite.bed.url}/attachments/`)
    expect(await fetched(url)).toEqual(new Uint8Array(SAMPLE.png))
  }, E2E_TIMEOUT)

  /** A chatbot with a chatapp integration on the fake provider; `userSays` posts one user message to its callback URL as the provider would. */
  async function chatappChatbot(name: string, phoneNumberId: string) {
    const chatbotId = await suite.bed.chatbot(name, HANDOFF_FLOW)
    const accessToken = `EAAG-desk-files-${phoneNumberId}`
    graph.register(phoneNumberId, accessToken)
    const chatapp = await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/chatapp`, {
      phone_number_id: phoneNumberId,
      access_token: accessToken,
      verify_token: 'verify-me-please',
    })
    const userSays = (from: string, message: Record<string, unknown>) =>
      fetch(`${suite.bed.url}${new URL(chatapp.config.callback_url).pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          webhook(phoneNumberId, {
            contacts: [{ profile: { name: 'Grace' }, wa_id: from }],
            messages: [{ from, id: nextWamid(), timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
          }),
        ),
      })
    return { chatbotId, accessToken, userSays }
  }

  test("a rest-api user's file, sent as base64, is stored by the binary and shows inline on the desk", async () => {
    const chatbotId = await suite.bed.chatbot('API photos', HANDOFF_FLOW)
    await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api`, { webhook_url: receiver.url, name: 'Back office' })
    const sent = await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api/messages`, {
      user_id: 'user-8',
      attachment: { filename: 'dent.png', data: Buffer.from(SAMPLE.png).toString('base64') },
    })
    expect(sent.message.content).toMatchObject({ kind: 'media', media: { type: 'image', filename: 'dent.png' } })
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${sent.conversation_id}`)
    await waitUntil(async () => (await visitorPictures(ada.page)).some((picture) => picture.loaded), "the desk shows the user's picture")
    expect((await visitorPictures(ada.page))[0]!.src).toBe(sent.message.content.media.url)
  }, E2E_TIMEOUT)

  test('the messaging app is sent an image whose link the provider downloads from Parley', async () => {
    const { chatbotId, userSays } = await chatappChatbot('Chat app shop', '106540352240777')
    const from = '15551234567'
    const hook = await userSays(from, { type: 'text', text: { body: 'send me the label' } })
    expect(hook.status).toBe(200)
    const [conversation] = (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations`)).items
    await attachFromDesk(conversation.id)

    await waitUntil(async () => graph.downloads.length > 0, 'the provider downloads the link')
    const sent = graph.received.find((request) => request.json?.type === 'image')
    expect(sent?.json).toMatchObject({ to: from, type: 'image' })
    const [download] = graph.downloads
    expect(download!.link).toBe(sent!.json.image.link)
    expect(download!.link).toStartWith(`${suite.bed.url}/attachments/`)
    expect(download!.status).toBe(200)
    expect(download!.bytes).toEqual(new Uint8Array(SAMPLE.png))
  }, E2E_TIMEOUT)

  test("the user's picture from the messaging app is downloaded from the provider by the binary, stored, and shows inline on the desk", async () => {
    const phoneNumberId = '106540352240778'
    const { chatbotId, accessToken, userSays } = await chatappChatbot('Chat app photos', phoneNumberId)
    const mediaId = graph.addMedia(phoneNumberId, SAMPLE.png, 'image/png')
    const hook = await userSays('15551234568', { type: 'image', image: { id: mediaId, mime_type: 'image/png', caption: 'the dent' } })
    expect(hook.status).toBe(200)
    expect(((await hook.json()) as { messages: unknown }).messages).toEqual({ stored: 1, duplicates: 0 })
    expect(graph.mediaRequests.filter((request) => request.path.endsWith(`/${mediaId}`)).map((request) => [request.headers.authorization, request.status])).toEqual([
      [`Bearer ${accessToken}`, 200],
      [`Bearer ${accessToken}`, 200],
    ])
    const [conversation] = (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations`)).items
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversation.id}`)
    await waitUntil(async () => (await visitorPictures(ada.page)).some((picture) => picture.loaded), "the desk shows the user's picture")
    const [shown] = await visitorPictures(ada.page)
    expect(shown!.src).toStartWith(`${suite.bed.url}/attachments/`)
    expect(await fetched(shown!.src)).toEqual(new Uint8Array(SAMPLE.png))
    expect(ada.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)
})
