import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { activePerson, ORIGIN } from '../people/support/people-context.ts'
import { liveServer, type LiveServer } from '../support/live-server.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'
import { DeskClient } from './support/desk-client.ts'
import { DESK } from './support/desk-context.ts'

/**
 * A visitor's end rating reaches the team: on the list row (and as a filter), on the
 * timeline as a `rated` event (live on the desk socket too) and in the context panel.
 */
describe("the visitor's rating on the desk", () => {
  let server: LiveServer
  let desk: DeskClient
  beforeAll(async () => {
    server = liveServer()
    const ada = await activePerson(server, 'ada@acme.io', 'admin')
    desk = await DeskClient.connect(`ws://127.0.0.1:${server.server.port}/app/socket`, { cookie: ada.cookie, origin: ORIGIN })
    await desk.next('ready')
  })
  afterAll(async () => {
    desk.close()
    await server.stop()
  })

  /** A widget visitor whose conversation a person closed, who then rates it. */
  async function rated(score: number, comment?: string): Promise<string> {
    const chat = await setUpWebChat(server, { flow: null, web: { greeting_message: 'Hello!', widget_config: { rating: 'stars' } } })
    const client = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
    await client.hello()
    client.send({ type: 'start' })
    const [first] = await client.messages(1)
    const id = first!.conversation_id
    expect((await server.call('POST', `${DESK}/conversations/${id}/status`, { body: { status: 'closed' } })).status).toBe(200)
    await client.next('status')
    client.send({ type: 'rate', conversation_id: id, score, ...(comment ? { comment } : {}) })
    await client.next('rating')
    client.close()
    return id
  }

  test('a rating shows on its row, on the timeline (live too) and in the context; the list filters by how good it was', async () => {
    const bad = await rated(2, 'Too slow.')
    const live = await desk.next((frame) => frame.type === 'timeline' && frame.conversation_id === bad && frame.event.kind === 'rated')
    expect(live.event).toMatchObject({ kind: 'rated', actor: null, data: { scale: 'stars', score: 2, comment: 'Too slow.' } })
    const good = await rated(5)
    const neutral = await rated(3)

    const row = (await server.call('GET', `${DESK}/conversations/${bad}`)).body
    expect(row.rating).toMatchObject({ scale: 'stars', score: 2, comment: 'Too slow.', created_at: expect.any(String) })
    const timeline = (await server.call('GET', `${DESK}/conversations/${bad}/timeline`)).body.items
    expect(timeline.at(-1)).toMatchObject({ type: 'event', event: { kind: 'rated', data: { score: 2 } } })
    expect((await server.call('GET', `${DESK}/conversations/${bad}/context`)).body.rating).toMatchObject({ score: 2, comment: 'Too slow.' })

    const listed = async (rating: string) => (await server.call('GET', `${DESK}/conversations?view=closed&rating=${rating}`)).body.items.map((item: { id: string }) => item.id)
    expect(await listed('bad')).toEqual([bad])
    expect(await listed('good')).toEqual([good])
    expect(await listed('neutral')).toEqual([neutral])
    expect(await listed('any')).toEqual([neutral, good, bad])
    const unrated = (await server.call('GET', `${DESK}/conversations?view=open`)).body.items
    expect(unrated.every((item: { rating: unknown }) => item.rating === null)).toBe(true)
    const refused = await server.call('GET', `${DESK}/conversations?rating=great`)
    expect(refused.status).toBe(422)
    expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(['/rating'])
  })
})
