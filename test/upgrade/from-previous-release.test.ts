import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrations } from '../../server/db/migrations/index.ts'
import { SAMPLE } from '../attachments/sample-files.ts'
import { FIXTURE } from '../fixtures/upgrade/make-fixture.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'
import { WidgetClient } from '../support/widget-client.ts'

/**
 * Upgrading as docs/deploy.md says: the database the previous release's binary wrote (commit
 * d3ebe13, used as users use it: test/fixtures/upgrade/make-fixture.ts, kept as SQL text),
 * a backup taken first, then the new binary started on it: its migrations run at start and
 * everything the old one stored is there and works. Then the way back: the backup restored
 * gives the file the previous release opens. The SQL is loaded with Debian's sqlite3 (Bun's
 * SQLite refuses to write the full-text index's tables as the dump does).
 */
const PREVIOUS = 'd3ebe13'
const sql = readFileSync(join(import.meta.dir, `../fixtures/upgrade/${PREVIOUS}.sql`), 'utf8')
const key = /API key (pk_[0-9A-Za-z]+)/.exec(sql.split('\n', 1)[0] as string)?.[1] as string
const work = mkdtempSync(join(tmpdir(), 'parley-upgrade-'))
const dataDir = join(work, 'data')
const databaseFile = join(dataDir, 'parley.db')
const preUpgrade = join(work, 'before-upgrade.db')
let parley: RunningParley | null = null
afterAll(async () => {
  await parley?.stop()
  rmSync(work, { recursive: true, force: true })
})

function cli(args: string[]) {
  const result = Bun.spawnSync([compiledParley(), ...args], { env: { ...process.env, PARLEY_DATA_DIR: dataDir } })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

function newestMigrationIn(file: string): number {
  const db = new Database(file, { readonly: true })
  try {
    return db.query<{ id: number }, []>('SELECT max(id) AS id FROM schema_migrations').get()?.id ?? 0
  } finally {
    db.close()
  }
}

describe(`upgrading from ${PREVIOUS}: replace the binary, restart`, () => {
  let previousSchema = 0
  const api = async (path: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) => {
    const answer = await fetch(`${parley!.url}/api/dev/v1${path}`, { headers })
    expect([path, answer.status]).toEqual([path, 200])
    return (await answer.json()) as any
  }

  beforeAll(async () => {
    mkdirSync(dataDir)
    const loaded = Bun.spawnSync(['sqlite3', databaseFile], { stdin: new TextEncoder().encode(sql) })
    if (loaded.exitCode !== 0) throw new Error(`sqlite3: ${loaded.stderr}`)
    previousSchema = newestMigrationIn(databaseFile)
    expect(cli(['backup', preUpgrade]).code).toBe(0)
    parley = await runParley([compiledParley()], { PARLEY_DATA_DIR: dataDir, PARLEY_PUBLIC_URL: 'http://parley.test' })
  }, 30_000)

  test("the new release's migrations run at start, and nothing else", () => {
    const newer = migrations.filter((migration) => migration.id > previousSchema).map((migration) => `${String(migration.id).padStart(4, '0')}_${migration.name}`)
    expect(newer.length).toBeGreaterThan(0)
    const applied = parley!
      .output()
      .split('\n')
      .find((line) => line.includes('"msg":"migrations applied"'))
    expect(JSON.parse(applied as string).migrations).toEqual(newer)
    expect(parley!.output()).not.toContain('created your first workspace')
  })

  test('the API key, chatbots, conversations, messages and the visitor\'s file are all there', async () => {
    expect((await fetch(`${parley!.url}/readyz`)).status).toBe(200)
    const bots = (await api('/chatbots')).items as { id: string; name: string }[]
    const support = bots.find((bot) => bot.name === 'Support') as { id: string }
    expect(support).toBeDefined()
    const conversations = (await api(`/chatbots/${support.id}/conversations`)).items as { id: string; channel: string; status: string }[]
    const web = conversations.find((conversation) => conversation.channel === 'web') as { id: string; status: string }
    expect(web.status).toBe('handoff')
    const messages = (await api(`/chatbots/${support.id}/conversations/${web.id}/messages?limit=50`)).items as { role: string; content: any }[]
    expect(messages.map((message) => `${message.role}: ${message.content.text ?? message.content.kind}`)).toEqual([
      `visitor: ${FIXTURE.visitorText}`,
      `bot: ${FIXTURE.answer}`,
      'visitor: media',
      'visitor: I would like to talk to a person',
      'bot: A person will take over.',
    ])
    const picture = await fetch(messages[2]!.content.media.url.replace('http://parley.test', parley!.url))
    expect(new Uint8Array(await picture.arrayBuffer())).toEqual(SAMPLE.png)
    const deliveries = (await api(`/chatbots/${support.id}/integrations/rest-api/deliveries`)).items as { status: string }[]
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['delivered'])
  })

  test('the admin signs in with the old password; the desk has the context, the note and the search index', async () => {
    const signedIn = await fetch(`${parley!.url}/api/dev/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://parley.test' },
      body: JSON.stringify({ email: FIXTURE.admin, password: FIXTURE.password }),
    })
    expect(signedIn.status).toBe(200)
    const asAda = { cookie: (signedIn.headers.get('set-cookie') as string).split(';')[0] as string, origin: 'http://parley.test' }
    const found = (await api('/desk/conversations?q=invoice', asAda)).items as { id: string }[]
    expect(found).toHaveLength(1)
    const context = await api(`/desk/conversations/${found[0]!.id}/context`, asAda)
    expect(context.contact.identity).toMatchObject({ kind: 'email', value: FIXTURE.visitor })
    expect(context.contact.details.map((detail: { key: string }) => detail.key).sort()).toEqual(['name', 'plan'])
    // Recorded before addresses were: none.
    expect(context.visitor).toEqual({ page_url: `${FIXTURE.site}/billing`, user_agent: null, address: null })
    expect(context.conversation.assignee.display_name).toBe('Ada')
    expect((await api(`/desk/conversations/${found[0]!.id}/notes`, asAda)).items.map((note: { text: string }) => note.text)).toEqual(['Paid by bank transfer.'])
  })

  test('the returning visitor gets their conversation back in the widget', async () => {
    const bots = (await api('/chatbots')).items as { id: string; name: string }[]
    const support = bots.find((bot) => bot.name === 'Support') as { id: string }
    const web = await api(`/chatbots/${support.id}/integrations/web`)
    const visitor = await WidgetClient.connect(`${parley!.url.replace('http', 'ws')}/widget/v1/socket?key=${web.config.widget_key}`, FIXTURE.site)
    const welcome = await visitor.hello({ user_id: FIXTURE.visitor })
    visitor.close()
    expect(welcome.messages.map((message) => message.role)).toEqual(['visitor', 'bot', 'visitor', 'visitor', 'bot'])
  })

  test('stopped, the upgraded file is whole; the way back: the backup taken before restores the previous release\'s file', async () => {
    expect(await parley!.stop()).toBe(0)
    parley = null
    const db = new Database(databaseFile, { readonly: true })
    expect(db.query('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }])
    expect(db.query('PRAGMA foreign_key_check').all()).toEqual([])
    db.close()
    expect(newestMigrationIn(databaseFile)).toBe(migrations.at(-1)?.id as number)
    const restored = cli(['restore', preUpgrade])
    expect(restored.stderr).toBe('')
    expect(restored.stdout).toContain(`(schema at migration ${previousSchema})`)
    expect(newestMigrationIn(databaseFile)).toBe(previousSchema)
  })
})
