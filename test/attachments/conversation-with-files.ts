import type { TestApp } from '../support/test-app.ts'
import { setUpWebChat } from '../support/web-chat.ts'

/** A web chatbot with one open conversation (an anonymous visitor's), committed, for attachments to go in. */
export async function conversationWithFiles(app: TestApp, key?: string) {
  const chat = await setUpWebChat(app, { key })
  const integration = (await app.services.integrations.findWebByWidgetKey(chat.widgetKey))!
  const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: null, tokenHash: `token-${chat.chatbotId}` })
  const conversation = app.services.conversations.open({ chatbotId: chat.chatbotId, channel: 'web', integrationId: chat.integrationId }, contact.id, null)
  await committed()
  return { ...chat, workspaceId: integration.workspaceId, conversationId: conversation.id, contactId: contact.id }
}

/** After the group commit of what was written in this turn of the event loop. */
export const committed = () => new Promise((resolve) => setImmediate(resolve))

/** The path of an attachment's address (what follows the public URL). */
export const pathOf = (url: string) => new URL(url).pathname
