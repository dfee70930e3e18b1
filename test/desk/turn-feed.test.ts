import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { activePerson, ORIGIN } from '../people/support/people-context.ts'
import { liveServer, type LiveServer } from '../support/live-server.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { WidgetClient } from '../support/widget-client.ts'
import { DeskClient } from './support/desk-client.ts'

/** Counts the commits made on the app's connection from now on. */
function commitCounter(server: LiveServer): { count: () => number; stop: () => void } {
  const exec = server.db.exec.bind(server.db)
  let commits = 0
  server.db.exec = ((sql: string, ...rest: never[]) => {
    if (/^\s*COMMIT\b/i.test(sql)) commits++
    return exec(sql, ...rest)
  }) as typeof server.db.exec
  return { count: () => commits, stop: () => void (server.db.exec = exec) }
}

describe("the desk feed's entries are written with the turn", () => {
  let server: LiveServer
  let chat: WebChat
  let cookie: string

  beforeAll(async () => {
    server = liveServer()
    cookie = (await activePerson(server, 'ada@acme.io', 'admin')).cookie
    chat = await setUpWebChat(server)
  })
  afterAll(async () => {
    await server.stop()
  })

  test("a visitor's message, the bot's answers and the desk's entries for them take one commit", async () => {
    const desk = await DeskClient.connect(`ws://127.0.0.1:${server.server.port}/app/socket`, { cookie, origin: ORIGIN })
    await desk.next('ready')
    const visitor = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
    await visitor.hello()
    visitor.send({ type: 'start' })
    await visitor.messages(2)
    await desk.next((frame) => frame.type === 'message' && frame.message.role === 'bot')
    await Bun.sleep(20)

    const commits = commitCounter(server)
    try {
      visitor.send({ type: 'message', client_id: 'c1', text: 'what is the price?' })
      const answer = await visitor.next('message')
      expect(answer.message.role).toBe('visitor')
      await visitor.next('message')
      // The desk hears of the visitor's message and the bot's answer, numbered.
      const said = await desk.next((frame) => frame.type === 'message' && frame.message.role === 'visitor')
      expect(said.message.content).toEqual({ kind: 'text', text: 'what is the price?' })
      await desk.next((frame) => frame.type === 'message' && frame.message.role === 'bot')
      await Bun.sleep(50)
      expect(commits.count()).toBe(1)
    } finally {
      commits.stop()
      visitor.close()
      desk.close()
    }
  })

  test("a flow's handoff: the status and timeline entries join the turn's commit", async () => {
    const desk = await DeskClient.connect(`ws://127.0.0.1:${server.server.port}/app/socket`, { cookie, origin: ORIGIN })
    await desk.next('ready')
    const visitor = await WidgetClient.connect(server.socketUrl(chat.widgetKey))
    await visitor.hello()
    visitor.send({ type: 'start' })
    await visitor.messages(2)
    await desk.next((frame) => frame.type === 'message' && frame.message.role === 'bot')
    await Bun.sleep(50)

    const commits = commitCounter(server)
    try {
      visitor.send({ type: 'reply', client_id: 'c2', reply_to: 'button', id: 'support', title: 'Support' })
      const status = await desk.next((frame) => frame.type === 'conversation' && frame.change === 'status')
      expect(status).toMatchObject({ status: 'handoff' })
      const timeline = await desk.next('timeline')
      expect(timeline.event.kind).toBe('handed_off')
      await Bun.sleep(50)
      expect(commits.count()).toBe(1)
    } finally {
      commits.stop()
      visitor.close()
      desk.close()
    }
  })
})
