#!/usr/bin/env bun
/**
 * The baseline for bench:http: a bare Bun.serve answering one chatbot row by id from the
 * same SQLite file with the same pragmas, and nothing else (no auth, validation or logs).
 */
import { Database } from 'bun:sqlite'

const [file] = process.argv.slice(2)
if (!file) throw new Error('usage: bare-server.ts DATABASE_FILE')
const db = new Database(file, { strict: true })
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000')
const select = db.query('SELECT id, name, entry_flow_id, created_at, updated_at FROM chatbots WHERE id = ?')

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(request) {
    const id = new URL(request.url).pathname.split('/').pop() ?? ''
    const row = select.get(id)
    return row ? Response.json(row) : new Response('not found', { status: 404 })
  },
})
console.log(`listening ${server.port}`)
