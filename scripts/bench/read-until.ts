/**
 * Reads a child process's output until `pattern` matches and resolves with the match. The rest
 * of the stream is drained in the background, so that the child's logging never blocks on a
 * full pipe.
 */
export async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp): Promise<RegExpExecArray> {
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`ended before ${pattern}: ${seen}`)
    seen += decoder.decode(value, { stream: true })
    const match = pattern.exec(seen)
    if (match) {
      void (async () => {
        while (!(await reader.read()).done);
      })()
      return match
    }
  }
}
