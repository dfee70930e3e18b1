import { describe, expect, test } from 'bun:test'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'
import type { WidgetClient } from '../../support/widget-client.ts'

const suite = socketSuite()
const { connect } = suite

/** A visitor whose conversation is open (its greeting received). */
async function visitorWithConversation(chat: WebChat): Promise<{ client: WidgetClient; token: string; conversationId: string }> {
  const client = await connect(chat)
  const welcome = await client.hello()
  client.send({ type: 'start' })
  const [first] = await client.messages(1)
  return { client, token: welcome.visitor_token, conversationId: first!.conversation_id }
}

async function close(chat: WebChat, conversationId: string, client: WidgetClient): Promise<void> {
  const result = await suite.server.call('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${conversationId}`, { body: { status: 'closed' } })
  expect(result.status).toBe(200)
  expect((await client.next('status')).status).toBe('closed')
}

const conversationOf = async (chat: WebChat, id: string) => (await suite.server.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations/${id}`)).body

describe('the end rating', () => {
  test('a closed conversation takes one rating of stars with a comment, shown to every tab and in the API', async () => {
    const chat = await setUpWebChat(suite.server, { flow: null, web: { greeting_message: 'Hello!', widget_config: { rating: 'stars' } } })
    const { client, token, conversationId } = await visitorWithConversation(chat)
    const otherTab = await connect(chat)
    await otherTab.hello({ visitor_token: token })
    await close(chat, conversationId, client)
    expect((await conversationOf(chat, conversationId)).rating).toBeNull()

    client.send({ type: 'rate', conversation_id: conversationId, score: 4, comment: '  Quick and kind.  ' })
    const rated = await client.next('rating')
    expect(rated).toMatchObject({ conversation_id: conversationId, rating: { scale: 'stars', score: 4, comment: 'Quick and kind.' } })
    expect((await otherTab.next('rating')).rating).toEqual(rated.rating)
    expect((await conversationOf(chat, conversationId)).rating).toEqual(rated.rating)

    // Once: a second rating, from any tab, is refused and the first stays.
    otherTab.send({ type: 'rate', conversation_id: conversationId, score: 1 })
    expect(await otherTab.next('error')).toMatchObject({ code: 'already_rated' })
    expect((await conversationOf(chat, conversationId)).rating.score).toBe(4)

    // A returning visitor learns that it was rated, so the widget does not ask again.
    const later = await connect(chat)
    expect((await later.hello({ visitor_token: token })).conversation).toMatchObject({ id: conversationId, status: 'closed', rating: { score: 4 } })
  })

  test('thumbs take 0 or 1 and nothing else; an empty comment is stored as none', async () => {
    const chat = await setUpWebChat(suite.server, { flow: null, web: { greeting_message: 'Hello!', widget_config: { rating: 'thumbs' } } })
    const { client, conversationId } = await visitorWithConversation(chat)
    await close(chat, conversationId, client)
    client.send({ type: 'rate', conversation_id: conversationId, score: 4 })
    expect(await client.next('error')).toMatchObject({ code: 'invalid_rating', message: 'score must be 0 (thumbs down) or 1 (thumbs up)' })
    client.send({ type: 'rate', conversation_id: conversationId, score: 0, comment: '   ' })
    expect((await client.next('rating')).rating).toMatchObject({ scale: 'thumbs', score: 0, comment: null })
  })

  test('stars refuse 0, and the schema refuses 6, fractions and an over-long comment', async () => {
    const chat = await setUpWebChat(suite.server, { flow: null, web: { greeting_message: 'Hello!', widget_config: { rating: 'stars' } } })
    const { client, conversationId } = await visitorWithConversation(chat)
    await close(chat, conversationId, client)
    client.send({ type: 'rate', conversation_id: conversationId, score: 0 })
    expect(await client.next('error')).toMatchObject({ code: 'invalid_rating', message: 'score must be 1 to 5' })
    for (const bad of [{ score: 6 }, { score: 2.5 }, { score: 3, comment: 'x'.repeat(1001) }]) {
      client.send({ type: 'rate', conversation_id: conversationId, ...bad })
      expect(await client.next('error')).toMatchObject({ code: 'invalid_message' })
    }
    expect((await conversationOf(chat, conversationId)).rating).toBeNull()
  })

  test('a running conversation cannot be rated yet', async () => {
    const chat = await setUpWebChat(suite.server, { flow: null, web: { greeting_message: 'Hello!', widget_config: { rating: 'thumbs' } } })
    const { client, conversationId } = await visitorWithConversation(chat)
    client.send({ type: 'rate', conversation_id: conversationId, score: 1 })
    expect(await client.next('error')).toMatchObject({ code: 'conversation_not_closed' })
  })

  test('without widget_config.rating nothing is asked and a rating is refused', async () => {
    const chat = await setUpWebChat(suite.server, { flow: null, web: { greeting_message: 'Hello!' } })
    const { client, conversationId } = await visitorWithConversation(chat)
    await close(chat, conversationId, client)
    client.send({ type: 'rate', conversation_id: conversationId, score: 1 })
    expect(await client.next('error')).toMatchObject({ code: 'rating_off' })
    expect((await conversationOf(chat, conversationId)).rating).toBeNull()
  })

  test("another visitor's conversation, or an unknown id, is not theirs to rate", async () => {
    const chat = await setUpWebChat(suite.server, { flow: null, web: { greeting_message: 'Hello!', widget_config: { rating: 'stars' } } })
    const owner = await visitorWithConversation(chat)
    await close(chat, owner.conversationId, owner.client)
    const stranger = await visitorWithConversation(chat)
    for (const id of [owner.conversationId, 'cv_unknown']) {
      stranger.client.send({ type: 'rate', conversation_id: id, score: 1 })
      expect(await stranger.client.next('error')).toMatchObject({ code: 'unknown_conversation' })
    }
    const anonymous = await connect(chat)
    await anonymous.hello()
    anonymous.send({ type: 'rate', conversation_id: owner.conversationId, score: 1 })
    expect(await anonymous.next('error')).toMatchObject({ code: 'unknown_conversation' })
    expect((await conversationOf(chat, owner.conversationId)).rating).toBeNull()
  })
})
