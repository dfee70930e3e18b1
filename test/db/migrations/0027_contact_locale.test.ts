import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

describe("migration 27: the contact's language", () => {
  test('existing contacts keep everything and have no language yet', () => {
    const db = seededDatabase({ before: 27 })
    const before = db.query('SELECT id, chatbot_id, external_id, details, created_at FROM contacts ORDER BY id').all()
    expect(before.length).toBeGreaterThan(0)
    expect(migrate(db).applied[0]).toEqual('0027_contact_locale')
    expect(db.query('SELECT id, chatbot_id, external_id, details, created_at FROM contacts ORDER BY id').all()).toEqual(before)
    expect(db.query('SELECT locale FROM contacts').all()).toEqual(before.map(() => ({ locale: null })))
  })
})
