#!/usr/bin/env bun
/**
 * The desk's client half of `npm run bench:desk` (scripts/bench/desk.ts may call these):
 * - the desk bundle as a browser downloads it (app.js and app.css, each gzipped), against
 *   the 60 KB target;
 * - the time from navigating to /app until the first list is drawn, in headless Chromium,
 *   in a workspace with 100,000 conversations against an empty one, measured in the same
 *   run (target: at most 1.5 times).
 * Run alone, it starts both Parleys in this process (real SQLite files, real sockets) and
 * seeds the full one through the stores (the desk's triggers keep its tables), one message
 * per conversation, a tenth of them handed off.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { conversationStore } from '../../server/conversations/conversation-store.ts'
import { messageStore } from '../../server/conversations/message-store.ts'
import { migrate } from '../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../server/db/open-database.ts'
import { listen } from '../../server/listen.ts'
import { createLogger } from '../../server/support/logger.ts'
import { newId } from '../../server/support/new-id.ts'
import { buildApp } from '../build-app.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts'

export const BUNDLE_TARGET_KB = 60
export const FIRST_LIST_TARGET_RATIO = 1.5

export interface DeskPerson {
  email: string
  password: string
}

/** The desk's bundle, built now from these sources: bytes a browser downloads (gzip). */
export async function deskBundleGzipped(): Promise<number> {
  return (await buildApp()).gzipped
}

/**
 * What a browser fetches to show the desk: every script and stylesheet a fresh Chromium
 * (nothing cached) downloads from signing in until the desk's list is drawn, in the bytes that
 * crossed the wire (gzip, as Chromium asks over plain http), with each file's name.
 */
export async function deskDownload(baseUrl: string, person: DeskPerson): Promise<{ bytes: number; files: { name: string; bytes: number }[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const sizes: Promise<{ name: string; bytes: number }>[] = []
    page.on('requestfinished', (request) => {
      if (!['script', 'stylesheet'].includes(request.resourceType())) return
      sizes.push(request.sizes().then((size) => ({ name: new URL(request.url()).pathname, bytes: size.responseBodySize })))
    })
    await page.goto(`${baseUrl}/app/sign-in`)
    await page.locator('input[name=email]').fill(person.email)
    await page.locator('input[name=password]').fill(person.password)
    await page.locator('button[type=submit]').click()
    await page.locator('.desk').waitFor()
    await page.locator('.list .row, .list .empty').first().waitFor()
    await page.waitForLoadState('networkidle')
    const files = await Promise.all(sizes)
    return { bytes: files.reduce((sum, file) => sum + file.bytes, 0), files }
  } finally {
    await browser.close()
  }
}

/**
 * Median milliseconds from `page.goto(/app?view=...)` until the list shows its rows (or says
 * it is empty), signed in, with a warm browser cache as a person reopening the desk has.
 */
export async function firstListMs(baseUrl: string, person: DeskPerson, runs = 15, view = 'open'): Promise<number> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/app/sign-in`)
    await page.locator('input[name=email]').fill(person.email)
    await page.locator('input[name=password]').fill(person.password)
    await page.locator('button[type=submit]').click()
    await page.locator('.desk').waitFor()
    const times: number[] = []
    for (let run = 0; run < runs + 2; run++) {
      await page.goto('about:blank')
      const started = performance.now()
      await page.goto(`${baseUrl}/app?view=${view}`)
      await page.locator('.list .row, .list .empty').first().waitFor()
      // The first two warm the cache and the server's statements.
      if (run >= 2) times.push(performance.now() - started)
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!
  } finally {
    await browser.close()
  }
}

/** A Parley in this process on a free port, with one admin; `seed` fills its database first. */
export async function benchParley(seed: (db: ReturnType<typeof openDatabase>, workspaceId: string) => void = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-desk-'))
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  const url = `http://127.0.0.1:${port}`
  const config = loadConfig({ PARLEY_DATA_DIR: dir, PARLEY_PUBLIC_URL: url, PORT: String(port), PARLEY_RATE_LIMIT: '0' })
  const db = openDatabase(join(dir, 'parley.db'))
  migrate(db)
  const app = createApp({ db, config, logger: createLogger('error') })
  const { key, workspaceId } = await app.services.workspaces.createKey({ name: 'bench' })
  seed(db, workspaceId)
  const person = { email: 'bench@acme.test', password: 'bench-correct-horse' }
  await app.services.people.createWithPassword(workspaceId, { email: person.email, display_name: 'Bench', role: 'admin' }, person.password)
  const server = listen(app, { port, hostname: '127.0.0.1' })
  return {
    url,
    person,
    async stop() {
      await server.stop(true)
      await app.close()
      closeDatabase(db)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** `count` conversations over 10 chatbots of one workspace, one visitor message each. */
export function seedConversations(count: number) {
  return (db: ReturnType<typeof openDatabase>, workspaceId: string) => {
    const at = new Date().toISOString()
    const conversations = conversationStore(db)
    const messages = messageStore(db)
    const bots = Array.from({ length: 10 }, (_, index) => {
      const id = newId()
      db.query('INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)').run(id, workspaceId, `Bot ${index + 1}`, at)
      return id
    })
    const contact = db.query('INSERT INTO contacts (id, chatbot_id, external_id, details, created_at) VALUES (?, ?, ?, ?, ?)')
    let seed = 7
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    db.transaction(() => {
      for (let index = 0; index < count; index++) {
        const chatbotId = bots[index % bots.length]!
        const contactId = newId()
        contact.run(contactId, chatbotId, null, JSON.stringify({ name: `Visitor ${index}`, email: `v${index}@example.com` }), at)
        const last = new Date(Date.parse('2026-01-01') + Math.floor(random() * 3e10)).toISOString()
        const id = newId()
        conversations.insert({
          id, chatbot_id: chatbotId, contact_id: contactId, channel: 'web', integration_id: null, flow_id: null, flow_version: null,
          status: index % 10 === 0 ? 'handoff' : index % 3 === 0 ? 'closed' : 'bot', state: '{"at":"listen","status":"bot","variables":{}}',
          created_at: at, updated_at: null, last_message_at: last,
        })
        messages.insert({ id: newId(), conversation_id: id, role: 'visitor', content: { kind: 'text', text: `Question number ${index} about my order` }, created_at: last })
      }
    })()
  }
}

if (import.meta.main) {
  const size = Number(process.env.BENCH_CONVERSATIONS ?? 100_000)
  const runs = Number(process.env.BENCH_RUNS ?? 15)
  const gzipped = await deskBundleGzipped()
  const seededAt = performance.now()
  const full = await benchParley(seedConversations(size))
  const empty = await benchParley()
  try {
    // The whole app (the console's screens and their editors included) is built as lazy chunks: the desk fetches its own only.
    const fetched = await deskDownload(empty.url, empty.person)
    const kb = fetched.bytes / 1024
    console.log(`bench:desk (client) what Chromium fetches to show the desk: ${kb.toFixed(1)} KB gzipped (target <= ${BUNDLE_TARGET_KB} KB) ${kb <= BUNDLE_TARGET_KB ? 'MET' : 'NOT MET'}`)
    console.log(`  ${fetched.files.map((file) => `${file.name} ${(file.bytes / 1024).toFixed(1)} KB`).join(', ')}`)
    console.log(`  the whole app, every lazy chunk: ${(gzipped / 1024).toFixed(1)} KB gzipped (not what a desk downloads)`)
    console.log(`  seeded ${size.toLocaleString('en')} conversations in ${Math.round(performance.now() - seededAt)} ms`)
    for (const view of ['open', 'waiting']) {
      const emptyMs = await firstListMs(empty.url, empty.person, runs, view)
      const fullMs = await firstListMs(full.url, full.person, runs, view)
      console.log(
        `  first list drawn (view ${view}, median of ${runs}): empty workspace ${emptyMs.toFixed(0)} ms, ${size.toLocaleString('en')} conversations ${fullMs.toFixed(0)} ms ` +
          `(ratio ${(fullMs / emptyMs).toFixed(2)}, target <= ${FIRST_LIST_TARGET_RATIO})`,
      )
    }
  } finally {
    await full.stop()
    await empty.stop()
  }
}
