import { afterEach, describe, expect, test } from 'bun:test'
import type { ServerWebSocket } from 'bun'
import { CloseCode } from '../../server/protocol/close-codes.ts'
import type { ClientMessage, ServerMessage } from '../../server/protocol/widget-protocol.ts'
import { backoffDelay, type ConnectionState, createConnection, socketUrl } from '../../widget/src/connection.ts'

describe('reconnect schedule', () => {
  test.each([
    [0, 250, 500],
    [1, 500, 1000],
    [2, 1000, 2000],
    [5, 8000, 16000],
    [6, 15000, 30000],
    [20, 15000, 30000],
  ])('try %i waits between %i and %i ms', (attempt, low, high) => {
    expect(backoffDelay(attempt, () => 0)).toBe(low)
    expect(backoffDelay(attempt, () => 1)).toBe(high)
    const jittered = backoffDelay(attempt, () => 0.5)
    expect(jittered).toBeGreaterThan(low)
    expect(jittered).toBeLessThan(high)
  })

  test('turns the server address and socket path into a ws:// or wss:// URL', () => {
    expect(socketUrl('http://127.0.0.1:3000', '/widget/v1/socket?key=wk_abc')).toBe('ws://127.0.0.1:3000/widget/v1/socket?key=wk_abc')
    expect(socketUrl('https://chat.shop.dev', '/widget/v1/socket?key=wk_abc')).toBe('wss://chat.shop.dev/widget/v1/socket?key=wk_abc')
  })
})

/**
 * A scripted peer on 127.0.0.1 speaking just enough of protocol v1: it records every frame per
 * connection and answers hello with welcome; each test decides the rest.
 */
interface Peer {
  connections: ClientMessage[][]
  sockets: ServerWebSocket<{ n: number }>[]
  frame: (socket: ServerWebSocket<{ n: number }>, message: ServerMessage) => void
}

function scriptedPeer(onFrame: (socket: ServerWebSocket<{ n: number }>, frame: ClientMessage, peer: Peer) => void = () => {}) {
  const peer: Peer = {
    connections: [],
    sockets: [],
    frame: (socket, message) => {
      socket.send(JSON.stringify(message))
    },
  }
  const server = Bun.serve<{ n: number }, never>({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request, srv) => (srv.upgrade(request, { data: { n: peer.connections.length } }) ? undefined : new Response('no', { status: 400 })),
    websocket: {
      open(socket) {
        peer.connections.push([])
        peer.sockets.push(socket)
      },
      message(socket, data) {
        const frame = JSON.parse(String(data)) as ClientMessage
        peer.connections[socket.data.n]?.push(frame)
        if (frame.type === 'hello') peer.frame(socket, { type: 'welcome', visitor_token: 'vt_1', conversation: null, messages: [], has_more: false, upload_token: 'ut_1', upload_max_bytes: 1024 })
        onFrame(socket, frame, peer)
      },
    },
  })
  stops.push(() => server.stop(true))
  return { ...peer, url: `ws://127.0.0.1:${server.port}/widget/v1/socket?key=wk_test` }
}

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

async function until(condition: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (condition()) return
    await Bun.sleep(10)
  }
  throw new Error(`timed out waiting for ${what}`)
}

function client(url: string, hello: () => ClientMessage = () => ({ type: 'hello', v: 1 })) {
  const states: ConnectionState[] = []
  const received: ServerMessage[] = []
  let closed: { code: number; reason: string } | undefined
  const connection = createConnection({
    url,
    hello,
    random: () => 0,
    onMessage: (message) => received.push(message),
    onState: (state, info) => {
      states.push(state)
      if (state === 'refused') closed = info
    },
  })
  stops.push(() => connection.disconnect())
  return { connection, states, received, closed: () => closed }
}

describe('the widget socket', () => {
  test('says hello on connect, built afresh every time, and is open once welcomed', async () => {
    const peer = scriptedPeer()
    let helloCount = 0
    const { connection, states, received } = client(peer.url, () => ({ type: 'hello', v: 1, page_url: `https://shop.dev/${++helloCount}` }))
    connection.connect()
    await until(() => connection.state === 'open', 'welcome')
    expect(states).toEqual(['connecting', 'open'])
    expect(received.map((m) => m.type)).toEqual(['welcome'])
    peer.sockets[0]?.close(1011, 'restart')
    await until(() => peer.connections.length === 2 && connection.state === 'open', 'reconnect')
    expect(peer.connections.map((frames) => frames[0])).toEqual([
      { type: 'hello', v: 1, page_url: 'https://shop.dev/1' },
      { type: 'hello', v: 1, page_url: 'https://shop.dev/2' },
    ])
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open'])
  })

  test('resends an unconfirmed visitor message with the same client_id after a reconnect, and a confirmed one never', async () => {
    const peer = scriptedPeer((socket, frame, p) => {
      // The first connection loses the first message; later ones confirm by echoing it.
      if (frame.type !== 'message') return
      if (socket.data.n === 0) return socket.close(1011, 'lost')
      p.frame(socket, { type: 'message', message: { id: `m_${frame.client_id}`, conversation_id: 'c', role: 'visitor', client_id: frame.client_id, content: { kind: 'text', text: frame.text }, created_at: '2026-01-01T00:00:00.000Z' } })
    })
    const { connection } = client(peer.url)
    connection.connect()
    await until(() => connection.state === 'open', 'welcome')
    connection.send({ type: 'message', client_id: 'c1', text: 'hello?' })
    await until(() => peer.connections.length === 2 && peer.connections[1]!.some((f) => f.type === 'message'), 'resend')
    expect(peer.connections[1]).toEqual([{ type: 'hello', v: 1 }, { type: 'message', client_id: 'c1', text: 'hello?' }])
    peer.sockets[1]?.close(1011, 'restart')
    await until(() => peer.connections.length === 3 && connection.state === 'open', 'third connection')
    expect(peer.connections[2]).toEqual([{ type: 'hello', v: 1 }])
  })

  test('an error naming a client_id ends its resending', async () => {
    const peer = scriptedPeer((socket, frame, p) => {
      if (frame.type === 'message') p.frame(socket, { type: 'error', code: 'message_too_long', message: 'too long', client_id: frame.client_id })
    })
    const { connection, received } = client(peer.url)
    connection.connect()
    await until(() => connection.state === 'open', 'welcome')
    connection.send({ type: 'message', client_id: 'c1', text: 'x' })
    await until(() => received.some((m) => m.type === 'error'), 'error')
    peer.sockets[0]?.close(1011)
    await until(() => peer.connections.length === 2 && connection.state === 'open', 'reconnect')
    expect(peer.connections[1]).toEqual([{ type: 'hello', v: 1 }])
  })

  test('queues visitor messages written while offline and drops typing and pings', async () => {
    const peer = scriptedPeer()
    const { connection } = client(peer.url)
    expect(connection.send({ type: 'typing', active: true })).toBe(false)
    expect(connection.send({ type: 'message', client_id: 'early', text: 'before connecting' })).toBe(false)
    connection.connect()
    await until(() => peer.connections[0]?.length === 2, 'queued message')
    expect(peer.connections[0]).toEqual([{ type: 'hello', v: 1 }, { type: 'message', client_id: 'early', text: 'before connecting' }])
  })

  test.each([
    ['unknown widget key', CloseCode.unknownWidgetKey],
    ['integration inactive', CloseCode.integrationInactive],
    ['origin not allowed', CloseCode.originNotAllowed],
    ['invalid identity', CloseCode.invalidIdentity],
    ['identity not verified', CloseCode.identityNotVerified],
    ['integration removed', CloseCode.integrationRemoved],
  ])('does not reconnect after the final close code for %s', async (reason, code) => {
    const peer = scriptedPeer((socket, frame) => {
      if (frame.type === 'hello') socket.close(code, reason)
    })
    const { connection, closed } = client(peer.url)
    connection.connect()
    await until(() => connection.state === 'refused', 'refusal')
    expect(closed()).toEqual({ code, reason })
    connection.connect()
    connection.retryNow()
    // Longer than the first backoff (at most 500 ms): a retry would have connected by now.
    await Bun.sleep(700)
    expect(peer.connections).toHaveLength(1)
    expect(connection.state).toBe('refused')
  })

  test.each([
    ['going away', CloseCode.goingAway],
    ['rate limited', CloseCode.rateLimited],
    ['protocol error', CloseCode.protocolError],
  ])('reconnects after %s', async (_, code) => {
    const peer = scriptedPeer((socket, frame) => {
      if (frame.type === 'hello' && socket.data.n === 0) socket.close(code)
    })
    const { connection } = client(peer.url)
    connection.connect()
    await until(() => peer.connections.length === 2 && connection.state === 'open', 'reconnect')
  })

  test('disconnect() closes without retrying; connect() resumes', async () => {
    const peer = scriptedPeer()
    const { connection, states } = client(peer.url)
    connection.connect()
    await until(() => connection.state === 'open', 'welcome')
    connection.disconnect()
    expect(connection.state).toBe('idle')
    await Bun.sleep(700)
    expect(peer.connections).toHaveLength(1)
    connection.connect()
    await until(() => connection.state === 'open', 'resume')
    expect(peer.connections).toHaveLength(2)
    expect(states).toEqual(['connecting', 'open', 'idle', 'connecting', 'open'])
  })


  test('keeps trying while the server is down, and connects at once when told the network is back', async () => {
    const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
    const port = probe.port as number
    probe.stop(true)
    const { connection, states } = client(`ws://127.0.0.1:${port}/widget/v1/socket?key=wk_test`)
    connection.connect()
    await until(() => connection.state === 'reconnecting', 'a failed try')
    expect(states).toEqual(['connecting', 'reconnecting'])
    const back = Bun.serve<undefined, never>({
      hostname: '127.0.0.1',
      port,
      fetch: (request, srv) => (srv.upgrade(request, { data: undefined }) ? undefined : new Response('no', { status: 400 })),
      websocket: {
        message(socket) {
          socket.send(JSON.stringify({ type: 'welcome', visitor_token: 'vt', conversation: null, messages: [], has_more: false, upload_token: 'ut_1', upload_max_bytes: 1024 }))
        },
      },
    })
    stops.push(() => back.stop(true))
    connection.retryNow()
    await until(() => connection.state === 'open', 'connected')
  })
})
