import { afterEach, describe, expect, test } from 'bun:test'
import { sqliteRunStore } from '../../../server/autopilot/sqlite-run-store.ts'
import { migrate } from '../../../server/db/migrate.ts'
import { deskStore } from '../../../server/desk/store.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'
const tool = (name: string, annotations?: Record<string, unknown>) => ({ name, title: null, description: null, input_schema: { type: 'object' }, annotations: annotations ?? null })
const config = (allow: string[] | null) => JSON.stringify({ url: 'https://tools.example.com/mcp', transport: 'auto', auth: { type: 'none' }, tools: { allow, deny: [] }, timeout_ms: 30000 })

/** A database as Parley left it before migration 26: mcp integrations with listed tools, and a conversation with a pending run. */
function databaseBefore26() {
  const db = seededDatabase({ before: 26, at })
  const integration = db.prepare('INSERT INTO integrations (id, chatbot_id, type, name, is_active, config, secrets, created_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)')
  const catalogue = db.prepare('INSERT INTO mcp_tool_catalogues (integration_id, tools, listed_at) VALUES (?, ?, ?)')
  // Offered a destructive tool under allow: null; offered only safe ones; an explicit list; never listed.
  integration.run('RISKY', 'B', 'mcp', 'risky', config(null), '{}', at)
  catalogue.run('RISKY', JSON.stringify([tool('find', { readOnlyHint: true }), tool('cancel', { destructiveHint: true }), tool('bare')]), at)
  integration.run('SAFE', 'B', 'mcp', 'safe', config(null), '{}', at)
  catalogue.run('SAFE', JSON.stringify([tool('find', { readOnlyHint: true }), tool('note', { destructiveHint: false })]), at)
  integration.run('LISTED', 'B', 'mcp', 'listed', config(['find']), '{}', at)
  catalogue.run('LISTED', JSON.stringify([tool('find', { readOnlyHint: true }), tool('cancel', { destructiveHint: true })]), at)
  integration.run('UNLISTED', 'B', 'mcp', 'unlisted', config(null), '{}', at)
  integration.run('WEB', 'B', 'web', 'site', JSON.stringify({ allowed_domains: [] }), '{}', at)
  db.exec(`
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at) VALUES ('C', 'B', 'P', 'web', 'bot', '${at}', '${at}');
    INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, created_at) VALUES ('R1', 'C', 'B', 'help', 'pending', '${at}'), ('R2', 'C', 'B', 'help', 'pending', '${at}');
  `)
  return db
}

describe('migration 26: failed runs on the timeline, and tools not marked safe', () => {
  test('an integration that offered tools not marked safe keeps offering exactly those it listed; the others are untouched', () => {
    const db = databaseBefore26()
    const before = db.query<{ id: string; config: string; updated_at: string | null }, []>('SELECT id, config, updated_at FROM integrations ORDER BY id').all()
    expect(migrate(db).applied[0]).toBe('0026_model_failures_and_tool_safety')
    const after = new Map(db.query<{ id: string; config: string; updated_at: string | null }, []>('SELECT id, config, updated_at FROM integrations').all().map((row) => [row.id, row]))
    expect(JSON.parse(after.get('RISKY')!.config).tools).toEqual({ allow: ['find', 'cancel', 'bare'], deny: [] })
    for (const row of before) {
      if (row.id !== 'RISKY') expect(after.get(row.id)!.config).toBe(row.config)
      expect(after.get(row.id)!.updated_at).toBe(row.updated_at)
    }
  })

  test("a run that ends failed puts its classified reason on the desk's timeline; a run that ends otherwise does not", async () => {
    const db = databaseBefore26()
    migrate(db)
    const runs = sqliteRunStore(db)
    const failure = { kind: 'unauthorized' as const, message: "the provider refused Parley's credentials (HTTP 401): check the API key", http_status: 401 }
    const totals = { runs: 1, model_calls: 1, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
    await runs.recordEnd([{ id: 'R1', status: 'done', outcome: 'answer', finished_at: '2026-01-01T00:01:00.000Z', ...totals }], [])
    await runs.recordEnd([{ id: 'R2', status: 'done', outcome: 'failed', finished_at: '2026-01-01T00:02:00.000Z', ...totals, failure }], [])
    // Finishing again changes nothing (the run is no longer pending), and writes no second event.
    await runs.recordEnd([{ id: 'R2', status: 'done', outcome: 'failed', finished_at: '2026-01-01T00:03:00.000Z', ...totals, failure }], [])
    const events = deskStore(db).events('C')
    expect(events.map((event) => [event.kind, event.at, JSON.parse(event.data)])).toEqual([['agent_failed', '2026-01-01T00:02:00.000Z', { state: 'help', run_id: 'R2', failure }]])
    expect(() => db.run("UPDATE agent_runs SET failure = 'not json' WHERE id = 'R1'")).toThrow()
  })
})
