/**
 * The `data:` payloads of a server-sent-events body, in order, as they arrive. Events are
 * separated by a blank line; an event's `data:` lines are joined with newlines; comments
 * (`: keep-alive`) and other fields are skipped. Lines end with \n, \r\n or \r.
 *
 * Linear in the body: each read is scanned once, and a line that spans many reads is kept in
 * pieces and joined once it ends (a 1 MiB line arriving in small reads used to be joined and
 * searched again at every read, which held the thread for seconds). At most `maxBytes` of the
 * body are read: past them the body is cancelled, `onCut` is told, and the unfinished event
 * is dropped, so a line that never ends holds no more than that in memory.
 */
export async function* serverSentData(body: ReadableStream<Uint8Array>, limit?: { maxBytes: number; onCut: () => void }): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  /** The unfinished line, in pieces. */
  const pieces: string[] = []
  let data: string[] = []
  /** The last read ended with \r: a \n starting the next one belongs to it. */
  let afterCarriageReturn = false
  let read = 0
  let cut = false
  const reader = body.getReader()
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      let value = next.value
      if (limit && read + value.length > limit.maxBytes) {
        value = value.subarray(0, Math.max(0, limit.maxBytes - read))
        cut = true
      }
      read += value.length
      const text = decoder.decode(value, { stream: !cut })
      let start = afterCarriageReturn && text.charCodeAt(0) === 10 ? 1 : 0
      afterCarriageReturn = false
      for (let at = start; at < text.length; at++) {
        const code = text.charCodeAt(at)
        if (code !== 10 && code !== 13) continue
        const line = pieces.length > 0 ? pieces.join('') + text.slice(start, at) : text.slice(start, at)
        pieces.length = 0
        if (code === 13) {
          if (at === text.length - 1) afterCarriageReturn = true
          else if (text.charCodeAt(at + 1) === 10) at++
        }
        start = at + 1
        if (line === '') {
          if (data.length > 0) yield data.join('\n')
          data = []
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5))
        }
      }
      if (start < text.length) pieces.push(text.slice(start))
      if (cut) {
        limit?.onCut()
        return
      }
    }
  } finally {
    if (cut) await reader.cancel().catch(() => {})
    else reader.releaseLock()
  }
  const last = pieces.join('')
  if (last.startsWith('data:')) data.push(last.slice(last.startsWith('data: ') ? 6 : 5))
  if (data.length > 0) yield data.join('\n')
}
