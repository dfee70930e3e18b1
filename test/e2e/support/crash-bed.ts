import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import { compiledParley } from '../../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../../support/run-parley.ts'

/** Answers every message, so that each visitor message is a whole turn: the visitor's row and the bot's. */
export const ECHO_FLOW: ConversationFlow = {
  version: 1,
  start: 'listen',
  states: { listen: { say: [{ text: 'Noted.' }], on: [{ to: 'listen' }] } },
}

/**
 * The compiled `dist/parley` on one data folder, started, killed with SIGKILL and started again
 * as a test needs; the API key the first start printed; the database file to look into while
 * no server runs.
 */
export function crashBed(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-crash-'))
  const environment = {
    PARLEY_DATA_DIR: dataDir,
    // The load comes from one address and one workspace: no limit must turn it away.
    PARLEY_RATE_LIMIT: '0',
    PARLEY_PUBLIC_RATE_LIMIT: '0',
    PARLEY_SOCKET_RATE_LIMIT: '0',
    ...env,
  }
  let server: RunningParley | null = null
  let key = ''

  const bed = {
    dataDir,
    databaseFile: join(dataDir, 'parley.db'),
    get url(): string {
      if (!server) throw new Error('no server runs')
      return server.url
    },
    get key(): string {
      return key
    },
    /** The running binary's process id (to read its memory from /proc). */
    get pid(): number {
      if (!server) throw new Error('no server runs')
      return server.proc.pid
    },

    async start(): Promise<void> {
      server = await runParley([compiledParley()], environment)
      const banner = /shown this once:\s+(pk_[0-9A-Za-z]+)/.exec(server.output())
      if (banner?.[1]) key = banner[1]
      if (!key) throw new Error(`no API key: ${server.output().slice(0, 500)}`)
    },

    /** SIGKILL: no shutdown, no last commit, no checkpoint. */
    async kill(): Promise<void> {
      await server?.stop('SIGKILL')
      server = null
    },

    /** A call to the developer API (or any path) with the key; the JSON answer, parsed. */
    async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
      const response = await fetch(`${bed.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, body: text ? JSON.parse(text) : undefined }
    },

    /** Like `call`, but a setup step: anything but a success throws. */
    async must(method: string, path: string, body?: unknown): Promise<any> {
      const result = await bed.call(method, path, body)
      if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${JSON.stringify(result.body)}`)
      return result.body
    },

    /** A chatbot with the echo flow published (unless `flow: null`). */
    async chatbot(name: string, flow: ConversationFlow | null = ECHO_FLOW): Promise<string> {
      const bot = await bed.must('POST', '/api/dev/v1/chatbots', { name })
      if (flow) {
        const made = await bed.must('POST', `/api/dev/v1/chatbots/${bot.id}/flows`, { name: 'Echo', type: 'conversation', flow })
        await bed.must('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${made.id}/publish`)
      }
      return bot.id as string
    },

    /** Reads the database file of the stopped server (a real open: SQLite recovers the WAL as it would at a restart). */
    read<T>(work: (db: Database) => T): T {
      if (server) throw new Error('stop the server before reading its file')
      const db = new Database(bed.databaseFile)
      try {
        return work(db)
      } finally {
        db.close()
      }
    },

    async close(): Promise<void> {
      await bed.kill()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return bed
}

export type CrashBed = ReturnType<typeof crashBed>

/** How many times each key occurs. */
export function tally(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  return counts
}
