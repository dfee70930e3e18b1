/**
 * The `data:` payloads of a server-sent-events body, in order, as they arrive. Events are
 * separated by a blank line; an event's `data:` lines are joined with newlines; comments
 * (`: keep-alive`) and other fields are skipped.
 */
export async function* serverSentData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let buffered = ''
  let data: string[] = []
  const reader = body.getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffered += decoder.decode(value, { stream: true })
    let newline = buffered.search(/\r\n|\r|\n/)
    // A lone \r at the end may be the first half of a \r\n split across reads.
    while (newline !== -1 && !(newline === buffered.length - 1 && buffered.endsWith('\r'))) {
      const line = buffered.slice(0, newline)
      buffered = buffered.slice(newline + (buffered.startsWith('\r\n', newline) ? 2 : 1))
      if (line === '') {
        if (data.length > 0) yield data.join('\n')
        data = []
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5))
      }
      newline = buffered.search(/\r\n|\r|\n/)
    }
  }
  if (buffered.startsWith('data:')) data.push(buffered.slice(buffered.startsWith('data: ') ? 6 : 5))
  if (data.length > 0) yield data.join('\n')
}
