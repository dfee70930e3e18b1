import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { testApp, type TestApp } from '../support/test-app.ts'
import { setUpWebChat, textOf } from '../support/web-chat.ts'
import { committed } from './conversation-with-files.ts'
import { SAMPLE } from './sample-files.ts'

const PHOTO_FLOW: ConversationFlow = {
  version: 1,
  start: 'ask',
  states: {
    ask: {
      say: [{ text: 'Send a photo of the damage' }],
      on: [
        { match: '^\\[image\\] ', to: 'thanks' },
        { match: '^\\[file\\] ', to: 'pdf' },
        { to: 'again' },
      ],
    },
    thanks: { say: [{ text: 'Got your picture {{contact.first_name}}' }], end: true },
    pdf: { say: [{ text: 'A document, thanks' }], end: true },
    again: { say: [{ text: 'Please send a picture' }], next: 'ask' },
  },
}

let app: TestApp
// A fresh app loads the whole server: generous on a busy machine.
beforeAll(() => {
  app = testApp()
}, 30_000)
afterAll(() => app.close())

async function visitorSends(bytes: Uint8Array, filename: string) {
  const chat = await setUpWebChat(app, { flow: PHOTO_FLOW })
  const workspaceId = (await app.services.integrations.findWebByWidgetKey(chat.widgetKey))!.workspaceId
  const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: null, tokenHash: `t-${chat.chatbotId}` })
  const ctx = { chatbotId: chat.chatbotId, channel: 'web' as const, integrationId: chat.integrationId }
  const conversation = app.services.conversations.open(ctx, contact.id, null)
  const { content } = app.services.attachments.save({ workspaceId, chatbotId: chat.chatbotId, conversationId: conversation.id, role: 'visitor', filename, bytes })
  const result = app.services.conversations.visitorSays(conversation, { clientId: 'c1', content }, ctx)
  await committed()
  const messages = app.services.conversations.history(conversation.id).messages
  return { result, messages, conversation, content, ctx }
}

describe("a visitor's file in a conversation", () => {
  test('is stored as their media message and read by the flow as "[image] name"', async () => {
    const { messages, content } = await visitorSends(SAMPLE.png, 'dent.png')
    expect(messages.map((m) => [m.role, m.content.kind === 'media' ? `media ${m.content.media.filename}` : textOf(m.content)])).toEqual([
      ['bot', 'Send a photo of the damage'],
      ['visitor', 'media dent.png'],
      ['bot', 'Got your picture '],
    ])
    expect(messages[1]!.content).toEqual(content)
    expect(messages[1]!.client_id).toBe('c1')
  })

  test('a PDF reads as "[file] name"', async () => {
    const { messages } = await visitorSends(SAMPLE.pdf, 'claim.pdf')
    expect(textOf(messages.at(-1)!.content)).toBe('A document, thanks')
  })

  test('a resend with the same client id is not stored twice', async () => {
    const { conversation, content, ctx } = await visitorSends(SAMPLE.png, 'dent.png')
    const again = app.services.conversations.visitorSays(conversation, { clientId: 'c1', content }, ctx)
    expect(again.duplicate).toBe(true)
  })
})
