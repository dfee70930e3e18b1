import type { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { listStore } from '../../../server/desk/list-store.ts'
import { messageIndexer } from '../../../server/desk/message-indexer.ts'
import { messageSearchStore } from '../../../server/desk/message-search-store.ts'
import { searchQuery } from '../../../server/desk/search-query.ts'
import { eventBus } from '../../../server/events/domain-events.ts'
import { createLogger, memorySink } from '../../../server/support/logger.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`

/** A database as Parley left it before migration 17: two conversations with messages and a contact with details. */
function databaseBeforeMigration17() {
  const db = seededDatabase({ before: 17, at: at(0) })
  db.exec(`
    UPDATE contacts SET external_id = 'grace@navy.mil', details = '{"name":"Grace Hopper","plan":"pro"}', updated_at = '${at(1)}' WHERE id = 'P';
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, state, created_at, updated_at, last_message_at, seq) VALUES
      ('C1', 'B', 'P', 'web', 'handoff', '{"state":"human","status":"handoff","waiting":null,"variables":{"email":"g@n.mil"},"interactive":[]}', '${at(2)}', '${at(3)}', '${at(3)}', 1),
      ('C2', 'B', 'P', 'web', 'bot', NULL, '${at(4)}', NULL, '${at(4)}', 2);
    INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES
      ('M1', 'C1', 1, 'visitor', '{"kind":"text","text":"my invoice is wrong"}', '${at(2)}'),
      ('M2', 'C1', 1, 'bot', '{"kind":"text","text":"a person will answer"}', '${at(3)}'),
      ('M3', 'C2', 2, 'visitor', '{"kind":"reply","reply_to":"button","id":"s","title":"Shipping"}', '${at(4)}');
  `)
  return db
}

const base = { workspaceId: 'W', personId: null, limit: 10 }

/** Runs the desk's message indexer as the server does at start, until it has caught up. */
async function indexMessages(db: Database) {
  const indexer = messageIndexer({ store: messageSearchStore(db), events: eventBus(), logger: createLogger('silent', memorySink()) })
  await indexer.caughtUp()
  indexer.close()
}

describe('migration 17: the desk', () => {
  test("existing conversations and contacts are in the desk's lists and search at once, existing messages once the indexer ran at start", async () => {
    const db = databaseBeforeMigration17()
    expect(migrate(db).applied.slice(0, 1)).toEqual(['0017_desk'])
    const lists = listStore(db)
    const ids = (filter: Parameters<typeof lists.list>[0]) => lists.list(filter).map((row) => row.id)
    expect(ids({ ...base, view: 'open' })).toEqual(['C2', 'C1'])
    expect(lists.list({ ...base, view: 'waiting' }).map((row) => [row.id, row.handoff_at])).toEqual([['C1', at(3)]])
    expect(ids({ ...base, view: 'open', ...searchQuery('invoice') })).toEqual([])
    await indexMessages(db)
    expect(ids({ ...base, view: 'open', ...searchQuery('invoice') })).toEqual(['C1'])
    expect(ids({ ...base, view: 'open', ...searchQuery('shipping') })).toEqual(['C2'])
    // The bot's own lines are not searched: they would match every conversation.
    expect(ids({ ...base, view: 'open', ...searchQuery('person') })).toEqual([])
    expect(ids({ ...base, view: 'open', ...searchQuery('navy') })).toEqual(['C2', 'C1'])
    expect(ids({ ...base, view: 'open', ...searchQuery('hopper') })).toEqual(['C2', 'C1'])
    expect(db.query('SELECT key, set_at FROM desk_contact_detail_times ORDER BY key').all()).toEqual([
      { key: 'name', set_at: at(1) },
      { key: 'plan', set_at: at(1) },
    ])
    db.close()
  })

  test('the triggers keep the desk in step: new rows, a status change with its event, details, deletions', async () => {
    const db = databaseBeforeMigration17()
    migrate(db)
    db.exec(`
      INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES ('C3', 'B', 'P', 'chatapp', 'bot', '${at(5)}', '${at(5)}', 3);
      INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES ('M4', 'C3', 3, 'visitor', '{"kind":"text","text":"where is my parcel"}', '${at(5)}');
      UPDATE conversations SET status = 'closed', updated_at = '${at(6)}' WHERE id = 'C1';
      UPDATE conversations SET state = '{"state":"x"}', updated_at = '${at(7)}', last_message_at = '${at(7)}' WHERE id = 'C2';
      UPDATE contacts SET details = '{"name":"Grace B. Hopper","plan":"pro","team":"navy"}', updated_at = '${at(8)}' WHERE id = 'P';
    `)
    await indexMessages(db)
    const lists = listStore(db)
    const ids = (filter: Parameters<typeof lists.list>[0]) => lists.list(filter).map((row) => row.id)
    expect(ids({ ...base, view: 'open' })).toEqual(['C3', 'C2'])
    expect(ids({ ...base, view: 'closed' })).toEqual(['C1'])
    expect(ids({ ...base, view: 'open', ...searchQuery('parcel') })).toEqual(['C3'])
    // A turn that keeps the status records nothing.
    expect(db.query("SELECT conversation_id, kind, at, json_extract(data, '$.from') AS from_status, json_extract(data, '$.state') AS state FROM desk_events").all()).toEqual([
      { conversation_id: 'C1', kind: 'closed', at: at(6), from_status: 'handoff', state: 'human' },
    ])
    expect(db.query('SELECT key, set_at FROM desk_contact_detail_times ORDER BY key').all()).toEqual([
      { key: 'name', set_at: at(8) },
      { key: 'plan', set_at: at(1) },
      { key: 'team', set_at: at(8) },
    ])
    expect(ids({ ...base, view: 'closed', ...searchQuery('B. Hopper') })).toEqual(['C1'])
    // A chatbot's removal takes its conversations, their messages and their search entries with it.
    expect(db.query("SELECT count(*) AS n FROM desk_message_search WHERE desk_message_search MATCH 'parcel'").get()).toEqual({ n: 1 })
    db.exec("DELETE FROM chatbots WHERE id = 'B'")
    expect(db.query('SELECT count(*) AS n FROM desk_threads').get()).toEqual({ n: 0 })
    expect(db.query("SELECT count(*) AS n FROM desk_message_search WHERE desk_message_search MATCH 'parcel'").get()).toEqual({ n: 0 })
    expect(db.query("SELECT count(*) AS n FROM desk_contact_search WHERE desk_contact_search MATCH 'hopper'").get()).toEqual({ n: 0 })
    db.close()
  })
})
