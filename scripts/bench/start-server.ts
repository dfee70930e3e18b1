import { spawn } from 'bun'
import { join } from 'node:path'
import { readUntil } from './read-until.ts'

const root = join(import.meta.dir, '../..')

/** Starts a server process for a benchmark and resolves with its port once `ready` matches its stdout. */
export async function startServer(command: string[], env: Record<string, string>, ready: RegExp) {
  const proc = spawn(command, { cwd: root, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'inherit' })
  const match = await readUntil(proc.stdout, ready)
  return { proc, port: Number(match[1]) }
}
