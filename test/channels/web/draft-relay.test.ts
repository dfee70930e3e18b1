import { afterEach, describe, expect, test } from 'bun:test'
import { draftRelay, MAX_DRAFT_CHARS } from '../../../server/channels/web/draft-relay.ts'
import type { WidgetSocket } from '../../../server/channels/web/socket-data.ts'
import { contactKey, SocketHub } from '../../../server/channels/web/socket-hub.ts'
import type { ServerMessage } from '../../../server/protocol/widget-protocol.ts'
import type { ConversationRef } from '../../../server/events/domain-events.ts'

/**
 * The relay's choices per tab, where a real socket cannot be made to hold a given backlog on
 * demand: a tab here is the part of Bun's socket the relay uses (send, the bytes it still
 * buffers), with a backlog the test sets. The frames over real sockets are in
 * widget-drafts.test.ts.
 */
interface FakeTab {
  socket: WidgetSocket
  frames: ServerMessage[]
  backlog: number
}

function tab(hub: SocketHub, contactId: string): FakeTab {
  const fake: FakeTab = { frames: [], backlog: 0, socket: undefined as never }
  fake.socket = {
    data: { visitorKey: '', contactId },
    send: (frame: string) => {
      fake.frames.push(JSON.parse(frame))
      return frame.length
    },
    getBufferedAmount: () => fake.backlog,
  } as unknown as WidgetSocket
  hub.setVisitor(fake.socket, contactKey(contactId))
  return fake
}

const ref: ConversationRef = { id: 'conv1', chatbot_id: 'bot1', contact_id: 'contact1', channel: 'web', integration_id: 'web1' }
const relays: ReturnType<typeof draftRelay>[] = []
afterEach(() => {
  for (const relay of relays.splice(0)) relay.close()
})
function relayOf(hub: SocketHub, draftFlushMs = 0, draftStaleMs?: number) {
  const relay = draftRelay(hub, { draftFlushMs, draftBehindBytes: 1000, draftStaleMs })
  relays.push(relay)
  return relay
}

describe('a tab whose peer reads slowly', () => {
  test('gets no deltas while its backlog is over the bound, then everything it lacks in one frame', () => {
    const hub = new SocketHub()
    const relay = relayOf(hub)
    const fast = tab(hub, 'contact1')
    const slow = tab(hub, 'contact1')
    relay.draft(ref, 'm1', 'started')
    relay.draft(ref, 'm1', 'delta', 'one ')
    slow.backlog = 5000
    relay.draft(ref, 'm1', 'delta', 'two ')
    relay.draft(ref, 'm1', 'delta', 'three ')
    expect(slow.frames.map((frame) => frame.type)).toEqual(['draft', 'draft_delta'])
    slow.backlog = 0
    relay.draft(ref, 'm1', 'delta', 'four')
    expect(slow.frames.at(-1)).toEqual({ type: 'draft_delta', message_id: 'm1', at: 4, text: 'two three four' })
    expect(fast.frames.at(-1)).toEqual({ type: 'draft_delta', message_id: 'm1', at: 14, text: 'four' })
  })

  test('that never saw the draft gets it whole once it can take it', () => {
    const hub = new SocketHub()
    const relay = relayOf(hub)
    const slow = tab(hub, 'contact1')
    slow.backlog = 5000
    relay.draft(ref, 'm1', 'started')
    relay.draft(ref, 'm1', 'delta', 'Hello')
    expect(slow.frames).toEqual([])
    slow.backlog = 0
    relay.draft(ref, 'm1', 'delta', ' there')
    expect(slow.frames).toEqual([{ type: 'draft', conversation_id: 'conv1', message_id: 'm1', text: 'Hello there' }])
    // Shown now, so a drop takes it back from this tab too.
    relay.draft(ref, 'm1', 'dropped')
    expect(slow.frames.at(-1)).toEqual({ type: 'draft_dropped', message_id: 'm1' })
  })
})

describe('bounds', () => {
  test(`a draft stops growing at ${MAX_DRAFT_CHARS} characters; the stored message carries the rest`, () => {
    const hub = new SocketHub()
    const relay = relayOf(hub)
    const reader = tab(hub, 'contact1')
    relay.draft(ref, 'm1', 'started')
    relay.draft(ref, 'm1', 'delta', 'x'.repeat(MAX_DRAFT_CHARS - 1))
    relay.draft(ref, 'm1', 'delta', 'yy')
    relay.draft(ref, 'm1', 'delta', 'z')
    const text = reader.frames.flatMap((frame) => (frame.type === 'draft_delta' ? [frame.text] : [])).join('')
    // Not `...xz`: a later fragment after one left out would show text that was never written.
    expect(text).toBe('x'.repeat(MAX_DRAFT_CHARS - 1))
  })

  test('a stored message, a drop or closing forgets the draft', () => {
    const hub = new SocketHub()
    const relay = relayOf(hub)
    relay.draft(ref, 'm1', 'started')
    relay.draft(ref, 'm2', 'started')
    relay.draft(ref, 'm3', 'delta', 'no start seen')
    expect(relay.size).toBe(3)
    relay.stored(ref, [{ id: 'm1', conversation_id: 'conv1', role: 'bot', content: { kind: 'text', text: 'done' }, created_at: '2026-01-01T00:00:00Z' }])
    relay.draft(ref, 'm2', 'dropped')
    expect(relay.size).toBe(1)
    relay.close()
    expect(relay.size).toBe(0)
  })
})

describe('a draft whose run went silent', () => {
  test('is taken back from the tabs, and the bot stops typing for tabs that connect later', async () => {
    const hub = new SocketHub()
    const relay = relayOf(hub, 0, 30)
    const reader = tab(hub, 'contact1')
    relay.draft(ref, 'm1', 'started')
    relay.botTyping(ref, true)
    for (let i = 0; i < 200 && relay.size > 0; i++) await Bun.sleep(10)
    expect(reader.frames.filter((frame) => frame.type === 'draft_dropped')).toEqual([{ type: 'draft_dropped', message_id: 'm1' }])
    const late = tab(hub, 'contact1')
    relay.resume(late.socket)
    expect(late.frames).toEqual([])
  })
})
