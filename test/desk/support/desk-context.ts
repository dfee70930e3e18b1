import type { TestApp } from '../../support/test-app.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'
import { activePerson, browser } from '../../people/support/people-context.ts'

export const DESK = '/api/dev/v1/desk'

/** A web conversation opened the way the socket does, through the services; optionally handed off by the flow. */
export function openConversation(
  app: TestApp,
  chat: WebChat,
  options: { details?: Record<string, string>; says?: string; handoff?: boolean; externalId?: string | null } = {},
) {
  const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: options.externalId ?? null, tokenHash: crypto.randomUUID() })
  if (options.details) app.services.visitors.mergeDetails(contact.id, options.details)
  const ctx = { chatbotId: chat.chatbotId, channel: 'web' as const, integrationId: chat.integrationId }
  const conversation = app.services.conversations.open(ctx, contact.id, 'Hello!')
  app.services.conversations.visitorSays(conversation, { clientId: crypto.randomUUID(), content: { kind: 'text', text: options.says ?? 'just looking' } }, ctx)
  if (options.handoff) {
    // The sales flow hands off on its Support button.
    app.services.conversations.visitorSays(
      conversation,
      { clientId: crypto.randomUUID(), content: { kind: 'reply', reply_to: 'button', id: 'support', title: 'Support' } },
      ctx,
    )
  }
  return { id: conversation.id, contactId: contact.id, ctx, conversation }
}

/** Two chatbots of one workspace, people of both roles, conversations in every state, and another workspace. */
export async function deskContext(app: TestApp) {
  const admin = await activePerson(app, 'ada@acme.io', 'admin')
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  const sales = await setUpWebChat(app)
  const support = await setUpWebChat(app)
  const first = openConversation(app, sales, { handoff: true, details: { name: 'Grace Hopper', email: 'grace@navy.mil', plan: 'pro' }, says: 'my invoice is wrong' })
  await Bun.sleep(5)
  const second = openConversation(app, support, { handoff: true, externalId: '+447700900123', says: 'refund please' })
  const withBot = openConversation(app, sales, { says: 'hello there' })
  const closed = openConversation(app, support, { says: 'bye' })
  await app.call('PATCH', `/api/dev/v1/chatbots/${support.chatbotId}/conversations/${closed.id}`, { body: { status: 'closed' } })
  const otherKey = app.otherWorkspaceKey()
  const otherChat = await setUpWebChat(app, { key: otherKey })
  const other = openConversation(app, otherChat, { handoff: true, says: 'my invoice from elsewhere' })
  await flush(app)
  await app.services.deskSearch.caughtUp()
  return { app, admin, agent, sales, support, first, second, withBot, closed, otherKey, other, asAdmin: browser(admin.cookie), asAgent: browser(agent.cookie) }
}

export type DeskCtx = Awaited<ReturnType<typeof deskContext>>

/** Lets the write batch commit (it commits on the next turn of the event loop). */
export const flush = async (_app?: TestApp) => {
  await Bun.sleep(1)
}
