#!/usr/bin/env bun
/**
 * The baseline for bench:ws: a bare Bun WebSocket server that stores each message in a
 * SQLite file (same pragmas as Parley) and echoes it. Nothing else.
 */
import { Database } from 'bun:sqlite'

const [file] = process.argv.slice(2)
if (!file) throw new Error('usage: bare-ws-server.ts DATABASE_FILE')
const db = new Database(file, { create: true, strict: true })
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000')
db.exec('CREATE TABLE IF NOT EXISTS echo (id INTEGER PRIMARY KEY, body TEXT NOT NULL, created_at TEXT NOT NULL)')
const insert = db.query('INSERT INTO echo (body, created_at) VALUES (?, ?)')

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(request, srv) {
    if (srv.upgrade(request, { data: undefined })) return undefined
    return new Response('websocket only', { status: 426 })
  },
  websocket: {
    message(socket, message) {
      const body = String(message)
      insert.run(body, new Date().toISOString())
      socket.send(body)
    },
  },
})
console.log(`listening ${server.port}`)
