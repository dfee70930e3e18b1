import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

describe('migration 13: chatbot model settings', () => {
  test('existing chatbots gain no model settings and keep everything else', () => {
    const db = seededDatabase({ before: 13 })
    const before = db.query('SELECT id, workspace_id, name, entry_flow_id, created_at, updated_at FROM chatbots').all()
    expect(migrate(db).applied[0]).toBe('0013_chatbot_model_settings')
    expect(db.query('SELECT id, workspace_id, name, entry_flow_id, created_at, updated_at FROM chatbots').all()).toEqual(before)
    expect(db.query('SELECT llm FROM chatbots').all()).toEqual(before.map(() => ({ llm: null })))
  })
})
