import { describe, expect, test } from 'bun:test'
import { connect as tcpConnect, type Socket } from 'node:net'
import { contactKey } from '../../../server/channels/web/socket-hub.ts'
import { messageStore } from '../../../server/conversations/message-store.ts'
import type { ChatMessage, ServerMessage } from '../../../server/protocol/widget-protocol.ts'
import type { ConversationRef } from '../../../server/events/domain-events.ts'
import { newId } from '../../../server/support/new-id.ts'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat } from '../../support/web-chat.ts'
import type { WidgetClient } from '../../support/widget-client.ts'

/**
 * The bot's answer as an LLM writes it, from the event bus of a live server to real widget
 * sockets: what the runner announces ('conversation.draft', 'conversation.typing', then the
 * stored message) is emitted here as it would be, and the frames each tab gets are checked.
 */
const suite = socketSuite()
const { connect } = suite

type Of<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>

/** A visitor with a running web conversation: its first tab, token and the conversation. */
async function visitorInConversation() {
  const chat = await setUpWebChat(suite.server)
  const tab = await connect(chat)
  const welcome = await tab.hello()
  tab.send({ type: 'start' })
  const opening = await tab.messages(2)
  const conversation = suite.server.services.conversations.get(opening[0]!.conversation_id)!
  const ref: ConversationRef = {
    id: conversation.id,
    chatbot_id: conversation.chatbot_id,
    contact_id: conversation.contact_id,
    channel: conversation.channel,
    integration_id: conversation.integration_id,
  }
  return { chat, tab, token: welcome.visitor_token, ref, lastShown: opening.at(-1)!.id }
}

const draft = (ref: ConversationRef, message_id: string, phase: 'started' | 'delta' | 'dropped', text?: string) =>
  suite.server.events.emit('conversation.draft', { conversation: ref, message_id, phase, ...(text === undefined ? {} : { text }) })

/** Stores the bot's answer under the draft's id and announces it, as the runner does. */
function storeAnswer(ref: ConversationRef, id: string, text: string): ChatMessage {
  const message: ChatMessage = { id, conversation_id: ref.id, role: 'bot', content: { kind: 'text', text }, created_at: new Date().toISOString() }
  messageStore(suite.server.db).insert(message)
  suite.server.events.emit('conversation.messages', { conversation: ref, messages: [message] })
  return message
}

/** What a widget shows of the draft after these frames, applying each delta where it says. */
function replay(frames: ServerMessage[], messageId: string): string | null {
  let text: string | null = null
  for (const frame of frames) {
    if (frame.type === 'draft' && frame.message_id === messageId) text = frame.text
    if (frame.type === 'draft_delta' && frame.message_id === messageId) {
      if (text === null || frame.at !== text.length) throw new Error(`delta at ${frame.at} on a draft of ${text?.length ?? 'nothing'}`)
      text += frame.text
    }
    if (frame.type === 'draft_dropped' && frame.message_id === messageId) text = null
  }
  return text
}

const draftFrames = (tab: WidgetClient) => tab.received.filter((frame) => frame.type.startsWith('draft'))

/** Waits until a round trip has passed, so everything sent before it has arrived. */
async function settle(tab: WidgetClient) {
  tab.send({ type: 'ping' })
  await tab.next('pong')
}

describe('a draft reaches every tab of the visitor', () => {
  test('it opens at once, grows by deltas that add up to the text, and ends with the stored message under its id', async () => {
    const { chat, tab, token, ref } = await visitorInConversation()
    const other = await connect(chat)
    await other.hello({ visitor_token: token })
    const id = newId()

    draft(ref, id, 'started')
    const opened = await tab.next('draft')
    expect(opened).toEqual({ type: 'draft', conversation_id: ref.id, message_id: id, text: '' })
    const fragments = ['Our ', 'opening ', 'hours ', 'are ', '9', '–', '17 ', '😀', ' on weekdays.']
    // A burst, as a fast model sends: the first fragment goes at once, the rest of the window's in one frame.
    for (const fragment of fragments) draft(ref, id, 'delta', fragment)
    const full = fragments.join('')
    const first = await tab.next('draft_delta')
    expect(first).toEqual({ type: 'draft_delta', message_id: id, at: 0, text: 'Our ' })
    expect(await tab.next('draft_delta')).toEqual({ type: 'draft_delta', message_id: id, at: 4, text: full.slice(4) })
    for (let i = 0; i < 50 && replay(draftFrames(other), id) !== full; i++) await Bun.sleep(20)
    expect(replay(draftFrames(other), id)).toBe(full)

    const stored = storeAnswer(ref, id, full)
    expect((await tab.next('message')).message).toEqual(stored)
    expect((await other.next('message')).message).toEqual(stored)
  })

  test('text still waiting in the window when the message is stored is not sent: the message carries it', async () => {
    const { tab, ref } = await visitorInConversation()
    const id = newId()
    draft(ref, id, 'started')
    draft(ref, id, 'delta', 'first')
    draft(ref, id, 'delta', ' second')
    storeAnswer(ref, id, 'first second')
    await tab.next('message')
    await Bun.sleep(120)
    await settle(tab)
    const frames = draftFrames(tab)
    expect(frames.map((frame) => frame.type)).toEqual(['draft', 'draft_delta'])
    expect((frames[1] as Of<'draft_delta'>).text).toBe('first')
  })

  test('a dropped draft is taken back from the tabs that show it, and no message follows', async () => {
    const { tab, ref } = await visitorInConversation()
    const id = newId()
    draft(ref, id, 'started')
    draft(ref, id, 'delta', 'Let me check')
    await tab.next('draft_delta')
    draft(ref, id, 'dropped')
    expect(await tab.next('draft_dropped')).toEqual({ type: 'draft_dropped', message_id: id })
    await settle(tab)
    expect(tab.received.filter((frame) => frame.type === 'message')).toEqual([])
  })

  test('drafts of other channels and of other visitors reach no tab', async () => {
    const { tab, ref } = await visitorInConversation()
    const stranger = await visitorInConversation()
    draft({ ...ref, channel: 'rest-api' }, newId(), 'started')
    draft(stranger.ref, newId(), 'started')
    await stranger.tab.next('draft')
    await settle(tab)
    expect(draftFrames(tab)).toEqual([])
  })
})

describe('a tab that connects or reconnects mid-answer', () => {
  test('gets the draft so far right after its welcome, then the deltas that follow, then the message once', async () => {
    const { chat, tab, token, ref, lastShown } = await visitorInConversation()
    const id = newId()
    draft(ref, id, 'started')
    draft(ref, id, 'delta', 'Half of ')
    await tab.next('draft_delta')
    tab.close()

    const again = await connect(chat)
    again.send({ type: 'hello', v: 1, visitor_token: token, after: lastShown })
    await again.next('welcome')
    expect(await again.next('draft')).toEqual({ type: 'draft', conversation_id: ref.id, message_id: id, text: 'Half of ' })
    draft(ref, id, 'delta', 'the answer')
    const delta = await again.next('draft_delta')
    expect(delta).toEqual({ type: 'draft_delta', message_id: id, at: 8, text: 'the answer' })

    const stored = storeAnswer(ref, id, 'Half of the answer')
    expect((await again.next('message')).message).toEqual(stored)
    again.close()

    // Reconnecting after it was stored: the welcome carries the message, and no draft comes back.
    const third = await connect(chat)
    third.send({ type: 'hello', v: 1, visitor_token: token, after: lastShown })
    const welcome = await third.next('welcome')
    expect(welcome.messages).toEqual([stored])
    await settle(third)
    expect(draftFrames(third)).toEqual([])
  })

  test('a draft dropped while the tab was away does not come back', async () => {
    const { chat, tab, token, ref } = await visitorInConversation()
    const id = newId()
    draft(ref, id, 'started')
    await tab.next('draft')
    tab.close()
    draft(ref, id, 'dropped')
    const again = await connect(chat)
    await again.hello({ visitor_token: token })
    await settle(again)
    expect(draftFrames(again)).toEqual([])
  })
})

describe("the bot's typing while tools run", () => {
  test('reaches the tabs, is repeated to a tab that connects meanwhile, and ends with the stored answer', async () => {
    const { chat, tab, token, ref } = await visitorInConversation()
    suite.server.events.emit('conversation.typing', { conversation: ref, active: true, from: 'bot' })
    expect(await tab.next('typing')).toEqual({ type: 'typing', from: 'bot', active: true })

    const joining = await connect(chat)
    await joining.hello({ visitor_token: token })
    expect(await joining.next('typing')).toEqual({ type: 'typing', from: 'bot', active: true })

    storeAnswer(ref, newId(), 'Done.')
    await tab.next('message')
    const late = await connect(chat)
    await late.hello({ visitor_token: token })
    await settle(late)
    expect(late.received.filter((frame) => frame.type === 'typing')).toEqual([])
  })

  test('stops when the bot says so', async () => {
    const { chat, tab, token, ref } = await visitorInConversation()
    suite.server.events.emit('conversation.typing', { conversation: ref, active: true, from: 'bot' })
    await tab.next('typing')
    suite.server.events.emit('conversation.typing', { conversation: ref, active: false, from: 'bot' })
    expect(await tab.next('typing')).toEqual({ type: 'typing', from: 'bot', active: false })
    const late = await connect(chat)
    await late.hello({ visitor_token: token })
    await settle(late)
    expect(late.received.filter((frame) => frame.type === 'typing')).toEqual([])
  })
})

describe('a tab whose peer stops reading', () => {
  test("is sent no more once 64 KiB wait for it, so the server does not queue a whole answer per slow tab; read again, it catches up", async () => {
    const { chat, tab, token, ref } = await visitorInConversation()
    const slow = await rawTab(suite.server.socketUrl(chat.widgetKey), token)
    slow.socket.pause()
    // 18 MB of drafts: more than the kernel's buffers between the two ends can hold.
    const chunk = 'x'.repeat(30_000)
    let largestBacklog = 0
    for (let i = 0; i < 600; i++) {
      const id = `01DRAFT${String(i).padStart(19, '0')}`
      draft(ref, id, 'started')
      draft(ref, id, 'delta', chunk)
      if (i < 599) draft(ref, id, 'dropped')
      for (const socket of suite.server.hub.socketsOf(contactKey(ref.contact_id))) largestBacklog = Math.max(largestBacklog, socket.getBufferedAmount())
      if (i % 50 === 0) await Bun.sleep(1)
    }
    // The bound, plus the one frame that crossed it, plus the small frames that take drafts back.
    expect(largestBacklog).toBeGreaterThan(64 * 1024)
    expect(largestBacklog).toBeLessThan(64 * 1024 + 2 * chunk.length + 600 * 100)
    await settle(tab)

    // Reading again: the last draft arrives whole (or its rest), once the backlog has drained.
    const last = '01DRAFT' + String(599).padStart(19, '0')
    slow.socket.resume()
    for (let i = 0; i < 200 && slow.text(last) === null; i++) {
      draft(ref, last, 'delta', '.')
      await Bun.sleep(20)
    }
    const shown = slow.text(last)
    expect(shown).not.toBeNull()
    expect(shown!.startsWith(chunk)).toBe(true)
    slow.socket.destroy()
  }, 30_000)
})

describe('a tab that stops reading while stored messages pile up', () => {
  test('is closed once its backlog passes the limit, never left open with messages silently dropped; the tab still reading gets them all', async () => {
    const { chat, tab, token, ref } = await visitorInConversation()
    const slow = await rawTab(suite.server.socketUrl(chat.widgetKey), token)
    let closed = false
    slow.socket.on('close', () => {
      closed = true
    })
    slow.socket.pause()
    const tabsBefore = suite.server.hub.socketsOf(contactKey(ref.contact_id)).size
    // 40 MB of stored messages: past the kernel's buffers and the per-socket limit.
    const text = 'y'.repeat(40_000)
    const sent: string[] = []
    for (let i = 0; i < 1000; i++) {
      const message: ChatMessage = { id: newId(), conversation_id: ref.id, role: 'agent', content: { kind: 'text', text }, created_at: new Date().toISOString() }
      sent.push(message.id)
      suite.server.events.emit('conversation.messages', { conversation: ref, messages: [message] })
      if (i % 20 === 0) await Bun.sleep(1)
    }
    for (let i = 0; i < 200 && suite.server.hub.socketsOf(contactKey(ref.contact_id)).size === tabsBefore; i++) await Bun.sleep(10)
    expect(suite.server.hub.socketsOf(contactKey(ref.contact_id)).size).toBe(tabsBefore - 1)
    slow.socket.resume()
    for (let i = 0; i < 300 && !closed; i++) await Bun.sleep(10)
    expect(closed).toBe(true)
    // The tab that kept reading lost nothing.
    await settle(tab)
    const got = new Set(tab.received.filter((frame) => frame.type === 'message').map((frame) => (frame as Extract<ServerMessage, { type: 'message' }>).message.id))
    expect(sent.filter((id) => !got.has(id))).toEqual([])
  }, 60_000)
})

/**
 * A widget tab over a bare TCP socket (RFC 6455 by hand), so the test can stop reading from it
 * as a stalled phone would: the frames it gets are decoded as they come.
 */
async function rawTab(url: string, visitorToken: string) {
  const { hostname, port, pathname, search } = new URL(url)
  const socket: Socket = tcpConnect(Number(port), hostname)
  let buffered = Buffer.alloc(0)
  let upgraded = false
  const frames: ServerMessage[] = []
  socket.on('data', (data: Buffer) => {
    buffered = Buffer.concat([buffered, data])
    if (!upgraded) {
      const end = buffered.indexOf('\r\n\r\n')
      if (end < 0) return
      upgraded = true
      buffered = buffered.subarray(end + 4)
    }
    for (;;) {
      if (buffered.length < 2) return
      let length = buffered[1]! & 0x7f
      let offset = 2
      if (length === 126) {
        if (buffered.length < 4) return
        length = buffered.readUInt16BE(2)
        offset = 4
      } else if (length === 127) {
        if (buffered.length < 10) return
        length = Number(buffered.readBigUInt64BE(2))
        offset = 10
      }
      if (buffered.length < offset + length) return
      const opcode = buffered[0]! & 0x0f
      if (opcode === 1) frames.push(JSON.parse(buffered.subarray(offset, offset + length).toString('utf8')))
      buffered = buffered.subarray(offset + length)
    }
  })
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  socket.write(
    `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  )
  const send = (message: unknown) => {
    const payload = Buffer.from(JSON.stringify(message))
    const mask = Buffer.from(crypto.getRandomValues(new Uint8Array(4)))
    const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff])
    socket.write(Buffer.concat([head, mask, payload.map((byte, i) => byte ^ mask[i % 4]!)]))
  }
  for (let i = 0; i < 200 && !upgraded; i++) await Bun.sleep(10)
  send({ type: 'hello', v: 1, visitor_token: visitorToken })
  for (let i = 0; i < 200 && !frames.some((frame) => frame.type === 'welcome'); i++) await Bun.sleep(10)
  if (!frames.some((frame) => frame.type === 'welcome')) throw new Error('no welcome on the raw tab')
  return { socket, frames, text: (messageId: string) => replay(frames, messageId) }
}
