import { afterEach, describe, expect, test } from 'bun:test'
import { conversationStore } from '../../server/conversations/conversation-store.ts'
import { ratingService } from '../../server/conversations/rating-service.ts'
import { ratingStore } from '../../server/conversations/rating-store.ts'
import { readService } from '../../server/conversations/read-service.ts'
import { readStore } from '../../server/conversations/read-store.ts'
import type { ChannelContext } from '../../server/conversations/service.ts'
import { writeBatcher } from '../../server/db/write-batcher.ts'
import { eventBus } from '../../server/events/domain-events.ts'
import { type TestApp, testApp } from '../support/test-app.ts'

/**
 * A rating or a read mark written in a batch that is then rolled back (a database failure in
 * another unit of the same batch) leaves nothing behind: the visitor may rate again, and the
 * mark may be set again. Both services once kept such writes in a map of their own, which the
 * rollback did not clear, so the visitor was refused with `already_rated`.
 */

const apps: TestApp[] = []
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close()
})

async function closedConversation() {
  const app = testApp()
  apps.push(app)
  const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Ghosts' } })).body
  const ctx: ChannelContext = { chatbotId: bot.id, channel: 'web', integrationId: null }
  const contact = app.services.visitors.ensureContact(bot.id, { externalId: null, tokenHash: 'visitor-hash' })
  const { conversation } = app.services.conversations.openWith(ctx, contact.id, null, { content: { kind: 'text', text: 'hello' } })
  const closed = await app.call('PATCH', `/api/dev/v1/chatbots/${bot.id}/conversations/${conversation.id}`, { body: { status: 'closed' } })
  expect(closed.status).toBe(200)
  // The services under test get a batcher of their own on the same connection, so the test
  // decides when a batch fails; as in the app, a rollback is announced on the event bus.
  const events = eventBus()
  const batch = writeBatcher(app.db, () => events.emit('database.rolled_back', {}))
  const failTheBatch = () => expect(() => batch.run(() => app.db.exec('INSERT INTO no_such_table VALUES (1)'))).toThrow()
  const newestMessage = app.db.query<{ id: string }, []>('SELECT id FROM messages ORDER BY rowid DESC LIMIT 1').get()!.id
  // The app's own batches (the close and what follows it) are committed first.
  while (app.db.inTransaction) await nextTurn()
  return { app, conversation, contactId: contact.id, events, batch, failTheBatch, newestMessage }
}

const now = () => new Date().toISOString()
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('writes of a rolled-back batch leave no ghosts', () => {
  test('a rating rolled back can be given again, and is not reported meanwhile', async () => {
    const { app, conversation, contactId, batch, failTheBatch } = await closedConversation()
    const ratings = ratingService({ conversations: conversationStore(app.db), ratings: ratingStore(app.db), batch, now })
    const input = { conversationId: conversation.id, contactId, scale: 'stars' as const, score: 2 }
    expect(ratings.rate(input, () => {})).toMatchObject({ ok: true })
    failTheBatch()
    expect(ratings.of(conversation.id)).toBeNull()
    const stored: number[] = []
    expect(ratings.rate({ ...input, score: 5 }, (rating) => stored.push(rating.score))).toMatchObject({ ok: true, rating: { score: 5 } })
    await nextTurn()
    expect(stored).toEqual([5])
    expect(ratingStore(app.db).get(conversation.id)).toMatchObject({ score: 5 })
    // Once stored, a second rating is refused as before.
    expect(ratings.rate(input, () => {})).toMatchObject({ ok: false, code: 'already_rated' })
  })

  test('two ratings in one batch keep the first', async () => {
    const { app, conversation, contactId, batch } = await closedConversation()
    const ratings = ratingService({ conversations: conversationStore(app.db), ratings: ratingStore(app.db), batch, now })
    const input = { conversationId: conversation.id, contactId, scale: 'stars' as const, score: 2 }
    expect(ratings.rate(input, () => {})).toMatchObject({ ok: true })
    expect(ratings.rate({ ...input, score: 4 }, () => {})).toMatchObject({ ok: false, code: 'already_rated' })
    await nextTurn()
    expect(ratingStore(app.db).get(conversation.id)).toMatchObject({ score: 2 })
  })

  test('a read mark rolled back is set again, and is not reported meanwhile', async () => {
    const { app, conversation, events, batch, failTheBatch, newestMessage } = await closedConversation()
    const reads = readService({ reads: readStore(app.db), batch, events, now })
    expect(reads.mark(conversation, 'visitor', newestMessage)).not.toBeNull()
    expect(reads.mark(conversation, 'visitor', newestMessage)).toBeNull()
    failTheBatch()
    expect(reads.of(conversation.id).visitor).toBeNull()
    expect(reads.mark(conversation, 'visitor', newestMessage)).toMatchObject({ up_to: newestMessage })
    await nextTurn()
    expect(readStore(app.db).of(conversation.id).visitor).toMatchObject({ up_to: newestMessage })
  })
})
