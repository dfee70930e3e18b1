import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONVERSATION_TOTALS_SQL, type FinishedRun, type PendingRun, type TraceRow } from '../../server/autopilot/run-store.ts'
import { onBothDatabases } from '../support/both-databases.ts'
import { migratedDatabase } from '../support/migrated-database.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('the run store', () => {
  test("a conversation's token totals are read through the chatbot's index, not by reading every run", () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-run-store-'))
    dirs.push(dir)
    const db = migratedDatabase(join(dir, 'parley.db'))
    const plan = db
      .query<{ detail: string }, [string, string]>(`EXPLAIN QUERY PLAN ${CONVERSATION_TOTALS_SQL}`)
      .all('B', 'C')
      .map((row) => row.detail)
    db.close()
    expect(plan).toEqual(['SEARCH agent_runs USING INDEX agent_runs_by_chatbot (chatbot_id=? AND conversation_id=?)'])
  })
})

const at = (minute: number) => `2026-05-03T10:${String(minute).padStart(2, '0')}:00.000Z`
const pending = (id: string, conversation: string): PendingRun => ({ id, conversation_id: conversation, chatbot_id: 'B', state: 'help', created_at: at(1) })
const ended = (id: string, tokens: number, extra: Partial<FinishedRun> = {}): FinishedRun => ({
  id,
  status: 'done',
  outcome: 'answer',
  finished_at: at(5),
  runs: 1,
  model_calls: 1,
  prompt_tokens: tokens - 1,
  completion_tokens: 1,
  total_tokens: tokens,
  ...extra,
})
const trace = (id: string, conversation: string, run: string): TraceRow => ({ id, conversation_id: conversation, run_id: run, kind: 'model', detail: `{"n":"${id}"}`, created_at: at(5) })
const zero = { runs: 0, model_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }

onBothDatabases('the run store', (database) => {
  test('keeps pending runs per conversation, oldest first, and reads the chatbot a run belongs to', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, llm, created_at) VALUES ('B', 'W', 'b', '{"model":"m"}', '${at(0)}')`)
    await exec(`INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('K', 'B', '${at(0)}')`)
    await exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at) VALUES
      ('C1', 'B', 'K', 'web', 'bot', '${at(0)}', '${at(0)}'), ('C2', 'B', 'K', 'web', 'bot', '${at(0)}', '${at(0)}'), ('C3', 'B', 'K', 'web', 'bot', '${at(0)}', '${at(0)}')`)
    await units.unit(async (tx) => {
      for (const run of [pending('R2', 'C1'), pending('R1', 'C1'), pending('R3', 'C2'), pending('R4', 'C3')]) await tx.agentRuns.insert(run)
    })
    expect(await stores.agentRuns.pendingOf('C1')).toEqual([pending('R1', 'C1'), pending('R2', 'C1')])
    expect((await stores.agentRuns.pendingConversations()).toSorted()).toEqual(['C1', 'C2', 'C3'])
    expect(await stores.agentRuns.isPending('R1')).toBe(true)
    expect(await stores.agentRuns.isPending('nope')).toBe(false)
    expect(await stores.agentRuns.chatbot('B')).toEqual({ workspace_id: 'W', llm: '{"model":"m"}' })
    expect(await stores.agentRuns.chatbot('nope')).toBeUndefined()
  })

  test('a run’s end finishes the runs still pending with the lead’s trace; ending again changes nothing', async () => {
    const { query, stores, units } = database()
    const failure = { kind: 'unauthorized' as const, message: 'refused (HTTP 401)', http_status: 401 }
    await units.conversationUnit('C1', (tx) =>
      tx.agentRuns.recordEnd([ended('R1', 0, { status: 'merged', model_calls: 0, prompt_tokens: 0, completion_tokens: 0 }), ended('R2', 30, { outcome: 'failed', failure })], [trace('T2', 'C1', 'R2'), trace('T1', 'C1', 'R2')]),
    )
    await units.conversationUnit('C1', (tx) => tx.agentRuns.recordEnd([ended('R2', 999, { outcome: 'answer' })], []))
    expect(await stores.agentRuns.pendingOf('C1')).toEqual([])
    expect(await stores.agentRuns.isPending('R2')).toBe(false)
    expect(await query(`SELECT id, status, outcome, total_tokens, failure FROM agent_runs WHERE conversation_id = 'C1' ORDER BY id`)).toEqual([
      { id: 'R1', status: 'merged', outcome: 'answer', total_tokens: 0, failure: null },
      { id: 'R2', status: 'done', outcome: 'failed', total_tokens: 30, failure: JSON.stringify(failure) },
    ])
    // The trigger puts the failure on the desk's timeline, once.
    expect((await query<{ kind: string }>(`SELECT kind FROM desk_events WHERE conversation_id = 'C1' AND kind = 'agent_failed'`)).length).toBe(1)
    expect(await stores.agentRuns.trace('C1', { limit: 1, offset: 1 })).toEqual({ items: [trace('T2', 'C1', 'R2')], total: 2 })
  })

  test('token totals: the chatbot’s, per conversation (most tokens first), and one conversation’s; pending runs not counted', async () => {
    const { stores, units } = database()
    await units.unit(async (tx) => {
      await tx.agentRuns.recordEnd([ended('R3', 30)], [])
      await tx.agentRuns.recordEnd([ended('R4', 7, { status: 'dropped', outcome: 'a person took over' })], [])
      await tx.agentRuns.insert(pending('R5', 'C3'))
    })
    const totals = { runs: 4, model_calls: 3, prompt_tokens: 64, completion_tokens: 3, total_tokens: 67 }
    expect(await stores.agentRuns.chatbotTotals('B')).toEqual(totals)
    expect(await stores.agentRuns.chatbotTotals('nope')).toEqual(zero)
    const perConversation = await stores.agentRuns.conversationTotals('B', { limit: 2, offset: 0 })
    expect(perConversation.total).toBe(3)
    expect(perConversation.items.map((row) => [row.conversation_id, row.total_tokens, row.runs])).toEqual([
      ['C1', 30, 2],
      ['C2', 30, 1],
    ])
    expect(await stores.agentRuns.totalsOfConversation('B', 'C3')).toEqual({ runs: 1, model_calls: 1, prompt_tokens: 6, completion_tokens: 1, total_tokens: 7 })
    expect(await stores.agentRuns.totalsOfConversation('B', 'none')).toEqual(zero)
  })

  test('a unit that fails stores none of its runs', async () => {
    const { stores, units } = database()
    const failing = units.unit(async (tx) => {
      await tx.agentRuns.insert(pending('R6', 'C2'))
      await tx.agentRuns.insert(pending('R6', 'C2'))
    })
    await expect(failing).rejects.toThrow()
    expect(await stores.agentRuns.isPending('R6')).toBe(false)
  })
})
