import { spawn, type Subprocess } from 'bun'

export interface RunningParley {
  proc: Subprocess<'ignore', 'pipe', 'pipe'>
  url: string
  /** Everything printed on stdout so far (the first-start banner, JSON log lines). */
  output: () => string
  stop: (signal?: NodeJS.Signals) => Promise<number>
}

/**
 * Starts `command... serve` on a free port and resolves once it logs that it listens;
 * `onOutput` sees stdout as it comes.
 */
export async function runParley(command: string[], env: Record<string, string>, onOutput: (text: string) => void = () => {}): Promise<RunningParley> {
  const proc = spawn([...command, 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let text = ''
  let resolveUrl: (url: string) => void = () => {}
  const listening = new Promise<string>((resolve) => (resolveUrl = resolve))
  void (async () => {
    const decoder = new TextDecoder()
    const reader = proc.stdout.getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      const chunk = decoder.decode(value, { stream: true })
      text += chunk
      onOutput(chunk)
      const match = /"msg":"listening".*?"url":"http:\/\/[^:]+:(\d+)"/.exec(text)
      if (match) resolveUrl(`http://127.0.0.1:${match[1]}`)
    }
  })()
  const timeout = Bun.sleep(15_000).then(() => {
    throw new Error(`parley did not start: ${text}`)
  })
  const url = await Promise.race([listening, timeout])
  return {
    proc,
    url,
    output: () => text,
    async stop(signal = 'SIGTERM') {
      proc.kill(signal)
      return await proc.exited
    },
  }
}
