import { spawn } from 'bun'
import { join } from 'node:path'

const root = join(import.meta.dir, '../..')

/** Starts a server process for a benchmark and resolves with its port once `ready` matches its stdout. */
export async function startServer(command: string[], env: Record<string, string>, ready: RegExp) {
  const proc = spawn(command, { cwd: root, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'inherit' })
  const decoder = new TextDecoder()
  const reader = proc.stdout.getReader()
  let seen = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`server did not start: ${seen}`)
    seen += decoder.decode(value, { stream: true })
    const match = ready.exec(seen)
    if (match) {
      // Keep draining stdout so that logging never blocks on a full pipe.
      void (async () => {
        while (!(await reader.read()).done);
      })()
      return { proc, port: Number(match[1]) }
    }
  }
}
