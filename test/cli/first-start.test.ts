import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../server/app.ts'
import { firstStart } from '../../server/cli/first-start.ts'
import { loadConfig } from '../../server/config.ts'
import { migrate } from '../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../server/db/open-database.ts'
import { listen } from '../../server/listen.ts'
import { createLogger } from '../../server/support/logger.ts'
import { WidgetClient } from '../support/widget-client.ts'

const dir = mkdtempSync(join(tmpdir(), 'parley-first-'))
const db = openDatabase(join(dir, 'parley.db'))
migrate(db)
const app = createApp({ db, config: loadConfig({ PARLEY_DATA_DIR: dir }), logger: createLogger('silent') })
const server = listen(app, { port: 0, hostname: '127.0.0.1' })
afterAll(async () => {
  server.stop(true)
  await app.close()
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

test('an empty database gets a workspace, one printed key and a demo chatbot with a published flow and a widget', async () => {
  const lines: string[] = []
  expect(await firstStart(app, 'http://localhost:3000', (line) => lines.push(line))).toBe(true)
  const key = lines.map((line) => line.trim()).find((line) => line.startsWith('pk_')) as string
  expect(key).toMatch(/^pk_[0-9A-Za-z]{40}$/)
  const workspaceId = (await app.services.workspaces.authenticate(key)) as string
  const bots = app.services.chatbots.list(workspaceId, { limit: 10, offset: 0 })
  expect(bots.items.map((bot) => bot.name)).toEqual(['Demo bot'])
  const widgetKey = (await app.services.demo.widgetKey()) as string
  expect(widgetKey).toMatch(/^wk_/)
  expect(lines.join('\n')).toContain(widgetKey)
  expect((await app.services.flows.entryVersion(bots.items[0]!.id))?.version).toBe(1)

  const visitor = await WidgetClient.connect(`ws://127.0.0.1:${server.port}/widget/v1/socket?key=${widgetKey}`)
  await visitor.hello()
  visitor.send({ type: 'start' })
  const opening = await visitor.messages(3)
  expect(opening[0]?.content).toEqual({ kind: 'text', text: 'Hi! I am the demo bot of this Parley server.' })
  expect(opening[2]?.content.kind).toBe('buttons')
  visitor.send({ type: 'reply', client_id: 'r1', reply_to: 'button', id: 'email', title: 'Leave my e-mail' })
  const [, ask] = await visitor.messages(2)
  expect(ask?.content).toEqual({ kind: 'text', text: 'What is your e-mail address?' })
  visitor.close()
})

test('a later start with data changes nothing and prints nothing', async () => {
  const lines: string[] = []
  expect(await firstStart(app, 'http://localhost:3000', (line) => lines.push(line))).toBe(false)
  expect(lines).toEqual([])
})

test('once the demo chatbot is deleted there is no demo widget key', async () => {
  const key = await app.services.workspaces.createKey({ name: 'x' })
  const bot = app.services.chatbots.list(key.workspaceId, { limit: 10, offset: 0 }).items[0]!
  app.services.chatbots.remove(key.workspaceId, bot.id)
  expect(await app.services.demo.widgetKey()).toBeNull()
})

test('the demo flow has no validation errors and no warnings', async () => {
  const { validateConversationFlow } = await import('../../server/flows/validate/conversation.ts')
  const { DEMO_FLOW } = await import('../../server/instance/demo-chatbot.ts')
  expect(validateConversationFlow(DEMO_FLOW, { flows: new Map(), mcpIntegrationIds: new Set() })).toEqual({ errors: [], warnings: [] })
})
