import { describe, expect, test } from 'bun:test'
import { serverSentData } from '../../server/llm/server-sent-events.ts'

function streamOf(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part))
      controller.close()
    },
  })
}

const collect = async (parts: string[]) => {
  const out: string[] = []
  for await (const data of serverSentData(streamOf(parts))) out.push(data)
  return out
}

describe('serverSentData', () => {
  test('yields each event\'s data, skipping comments and other fields', async () => {
    expect(await collect([': keep-alive\n\n', 'event: x\ndata: {"a":1}\n\n', 'id: 3\ndata: [DONE]\n\n'])).toEqual(['{"a":1}', '[DONE]'])
  })

  test('events split anywhere across reads, CRLF included, come out whole', async () => {
    const text = 'data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n'
    for (let cut = 1; cut < text.length; cut++) {
      expect(await collect([text.slice(0, cut), text.slice(cut)])).toEqual(['{"a":1}', '{"b":2}'])
    }
  })

  test('multi-line data is joined with newlines, and a last event without a blank line still counts', async () => {
    expect(await collect(['data: one\ndata: two\n\ndata:three'])).toEqual(['one\ntwo', 'three'])
  })
})

describe('serverSentData within a byte limit', () => {
  test('stops reading at the limit, says so, and drops the event left unfinished', async () => {
    let cut = false
    let pulled = 0
    const encoder = new TextEncoder()
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(encoder.encode(pulled === 1 ? 'data: {"a":1}\n\ndata: {"b":"' : 'x'.repeat(1000)))
      },
    })
    const out: string[] = []
    for await (const data of serverSentData(endless, { maxBytes: 10_000, onCut: () => (cut = true) })) out.push(data)
    expect(out).toEqual(['{"a":1}'])
    expect(cut).toBe(true)
    expect(pulled).toBeLessThan(15)
  })
})
