import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONVERSATION_TOTALS_SQL } from '../../server/autopilot/run-store.ts'
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
