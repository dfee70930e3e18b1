import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Session } from '../../widget/src/session.ts'
import { type LiveServer, liveServer } from '../support/live-server.ts'
import { setUpWebChat } from '../support/web-chat.ts'
import { openSession, until } from './support/session-helpers.ts'

describe("the widget's session keeps the visitor's messages on their way", () => {
  let server: LiveServer
  const sessions: Session[] = []
  beforeAll(() => {
    server = liveServer()
  })
  afterAll(async () => {
    for (const session of sessions) session.setActive(false)
    await server.stop()
  })

  test('a text the server refuses stays, marked with the reason, until put away; an accepted one leaves for the stored message', async () => {
    const chat = await setUpWebChat(server)
    const session = openSession(server, chat.widgetKey)
    sessions.push(session)
    await until(() => session.messages().length >= 2, 'the greeting')
    // Longer than the protocol's 4096 characters: refused with its client_id echoed.
    session.sendText('x'.repeat(5000))
    session.sendText('fine')
    await until(() => session.messages().some((message) => message.role === 'visitor'), 'the accepted text stored')
    await until(() => session.outgoing().some((item) => item.failed), 'the refusal')
    expect(session.outgoing()).toHaveLength(1)
    const [refused] = session.outgoing()
    expect(refused!.content).toEqual({ kind: 'text', text: 'x'.repeat(5000) })
    expect(refused!.failed).toBeString()
    session.dismissOutgoing(refused!.client_id)
    expect(session.outgoing()).toEqual([])
  })
})
