import { beforeAll, describe, expect, test } from 'bun:test'
import { CloseCode } from '../../../server/protocol/close-codes.ts'
import { FRAME_LIMITS } from '../../../server/protocol/widget-protocol.ts'
import { Opcode, RawSocketClient } from '../../fuzz/support/socket-raw-client.ts'
import { socketSuite } from '../../support/socket-suite.ts'
import { setUpWebChat, type WebChat } from '../../support/web-chat.ts'

const suite = socketSuite()
const { connect } = suite

const nested = (levels: number) => `${'['.repeat(levels - 1)}{"type":"ping"}${']'.repeat(levels - 1)}`
const withMembers = (count: number) =>
  JSON.stringify({ type: 'contact_details', details: Object.fromEntries(Array.from({ length: count - 2 }, (_, i) => [`k${i}`, i])) })

describe('a frame is bounded before it is parsed', () => {
  let chat: WebChat
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server)
  })

  test(`a frame over ${FRAME_LIMITS.maxBytes} bytes closes the socket with 1009`, async () => {
    const client = await connect(chat)
    await client.hello()
    client.send({ type: 'message', client_id: 'big', text: 'x'.repeat(FRAME_LIMITS.maxBytes) })
    expect((await client.closedWith()).code).toBe(CloseCode.frameTooLarge)
  })

  test('the largest frames the widget sends pass: every character of a 4,096-character message escaped, 13 long contact details', async () => {
    const quiet = await setUpWebChat(suite.server, { flow: null })
    const client = await connect(quiet)
    await client.hello({ contact_details: Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`field_${i}`, '\u00e9'.repeat(300)])) })
    const text = '\u00e9'.repeat(4096)
    const escaped = JSON.stringify({ type: 'message', client_id: 'long', text }).replace(/\u00e9/g, '\\u00e9')
    expect(escaped.length).toBeGreaterThan(24_000)
    client.send(escaped)
    const [echo] = await client.messages(1)
    expect(echo).toMatchObject({ role: 'visitor', client_id: 'long', content: { kind: 'text', text } })
  })

  test(`after hello, a frame nested over ${FRAME_LIMITS.maxDepth} levels gets json_too_deep and the socket stays open`, async () => {
    const client = await connect(chat)
    await client.hello()
    client.send(nested(FRAME_LIMITS.maxDepth + 1))
    expect(await client.next('error')).toEqual({
      type: 'error',
      code: 'json_too_deep',
      message: `the frame is nested more than ${FRAME_LIMITS.maxDepth} levels deep`,
    })
    client.send(nested(FRAME_LIMITS.maxDepth))
    expect((await client.next('error')).code).toBe('invalid_message')
    client.send({ type: 'ping' })
    await client.next('pong')
  })

  test(`after hello, a frame of over ${FRAME_LIMITS.maxKeys} object members gets json_too_many_members; one within it is read`, async () => {
    const client = await connect(chat)
    await client.hello()
    client.send(withMembers(FRAME_LIMITS.maxKeys + 1))
    expect(await client.next('error')).toEqual({
      type: 'error',
      code: 'json_too_many_members',
      message: `the frame has more than ${FRAME_LIMITS.maxKeys} object members`,
    })
    client.send(withMembers(FRAME_LIMITS.maxKeys))
    // Within the bound the frame is read: its details are kept, 13 of them (contact_details_limit says which are not).
    expect((await client.next('error')).code).toBe('contact_details_limit')
  })

  test('before hello, a frame over the limits is a protocol error that says why', async () => {
    const deep = await connect(chat)
    deep.send(nested(FRAME_LIMITS.maxDepth + 1))
    expect(await deep.closedWith()).toEqual({ code: CloseCode.protocolError, reason: `the frame is nested more than ${FRAME_LIMITS.maxDepth} levels deep` })
    const wide = await connect(chat)
    wide.send(`{"type":"hello","v":1,"contact_details":${JSON.stringify(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])))}}`)
    expect(await wide.closedWith()).toEqual({ code: CloseCode.protocolError, reason: `the frame has more than ${FRAME_LIMITS.maxKeys} object members` })
  })
})

describe('frames of other kinds', () => {
  let chat: WebChat
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server)
  })

  test('a binary frame of JSON in UTF-8 is read like a text frame', async () => {
    const client = await RawSocketClient.open(suite.server.socketUrl(chat.widgetKey))
    client.sendFrame(Opcode.binary, JSON.stringify({ type: 'hello', v: 1 }))
    expect(await client.until((log) => log.texts.length > 0)).toBe(true)
    expect(client.messages()[0]).toMatchObject({ type: 'welcome' })
    client.destroy()
  })

  test('a binary frame that is not UTF-8 is a protocol error', async () => {
    const client = await RawSocketClient.open(suite.server.socketUrl(chat.widgetKey))
    client.sendFrame(Opcode.binary, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))
    expect(await client.until((log) => log.close !== null)).toBe(true)
    expect(client.log.close).toEqual({ code: CloseCode.protocolError, reason: 'frames must be JSON text in UTF-8' })
    client.destroy()
  })

  test('a text frame that is not UTF-8 closes with 1007', async () => {
    const client = await RawSocketClient.open(suite.server.socketUrl(chat.widgetKey))
    client.sendFrame(Opcode.text, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))
    expect(await client.until((log) => log.close !== null)).toBe(true)
    expect(client.log.close?.code).toBe(CloseCode.invalidFrameData)
    client.destroy()
  })
})

describe('a flood of frames', () => {
  let chat: WebChat
  beforeAll(async () => {
    chat = await setUpWebChat(suite.server)
  })

  // The default limit: 120 frames a minute in bursts of 30, and 20 refusals close the socket.
  const mostAnswers = 30 + 20

  for (const [kind, frame] of [
    ['schema-invalid', JSON.stringify({ type: 'message', client_id: 'c1', text: '' })],
    ['too deep', nested(FRAME_LIMITS.maxDepth + 1)],
    ['too wide', withMembers(FRAME_LIMITS.maxKeys + 1)],
    ['valid', JSON.stringify({ type: 'ping' })],
  ] as const) {
    test(`of ${kind} frames is answered a bounded number of times, then closed with 4008`, async () => {
      const client = await RawSocketClient.open(suite.server.socketUrl(chat.widgetKey))
      client.sendText(JSON.stringify({ type: 'hello', v: 1 }))
      expect(await client.until((log) => log.texts.length > 0)).toBe(true)
      for (let i = 0; i < 2000; i++) client.sendText(frame)
      expect(await client.until((log) => log.close !== null, 5000)).toBe(true)
      expect(client.log.close).toEqual({ code: CloseCode.rateLimited, reason: 'too many messages' })
      // The welcome, then at most a burst of answers and the refusals before the close.
      expect(client.log.texts.length - 1).toBeLessThanOrEqual(mostAnswers)
      const codes = new Set(client.messages().slice(1).map((message) => (message as { code?: string; type: string }).code ?? (message as { type: string }).type))
      expect([...codes].every((code) => ['invalid_message', 'json_too_deep', 'json_too_many_members', 'rate_limited', 'pong'].includes(code))).toBe(true)
      client.destroy()
    })
  }

  test('a flooding socket does not silence another visitor', async () => {
    const flooder = await RawSocketClient.open(suite.server.socketUrl(chat.widgetKey))
    flooder.sendText(JSON.stringify({ type: 'hello', v: 1 }))
    const other = await connect(chat)
    await other.hello()
    for (let i = 0; i < 2000; i++) flooder.sendText('{"type":"message"}')
    await flooder.until((log) => log.close !== null, 5000)
    other.send({ type: 'ping' })
    await other.next('pong')
    flooder.destroy()
  })
})
