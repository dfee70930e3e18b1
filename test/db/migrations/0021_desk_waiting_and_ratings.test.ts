import { afterEach, describe, expect, test } from 'bun:test'
import { migrate } from '../../../server/db/migrate.ts'
import { migrations } from '../../../server/db/migrations/index.ts'
import { removeSeededDatabases, seededDatabase } from '../../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const t = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`

/** Conversations as an older Parley left them: handed off, answered or not, rated, with the bot. */
function olderDatabase() {
  const db = seededDatabase({ before: 21 })
  const conversation = db.query("INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES (?, 'B', 'P', 'web', ?, ?, ?, ?)")
  const message = db.query("INSERT INTO messages (id, conversation_id, conversation_seq, role, content, created_at) VALUES (?, ?, ?, ?, '{\"kind\":\"text\",\"text\":\"x\"}', ?)")
  conversation.run('UNANSWERED', 'handoff', t(1), t(2), 1)
  message.run('U1', 'UNANSWERED', 1, 'visitor', t(1))
  message.run('U2', 'UNANSWERED', 1, 'bot', t(1))
  conversation.run('ANSWERED', 'handoff', t(1), t(3), 2)
  message.run('A1', 'ANSWERED', 2, 'visitor', t(1))
  message.run('A2', 'ANSWERED', 2, 'agent', t(3))
  conversation.run('AGAIN', 'handoff', t(1), t(6), 3)
  message.run('G1', 'AGAIN', 3, 'visitor', t(1))
  message.run('G2', 'AGAIN', 3, 'agent', t(3))
  message.run('G3', 'AGAIN', 3, 'visitor', t(5))
  message.run('G4', 'AGAIN', 3, 'visitor', t(6))
  conversation.run('RATED', 'closed', t(1), t(2), 4)
  db.query("INSERT INTO conversation_ratings (conversation_id, scale, score, comment, created_at) VALUES ('RATED', 'stars', 2, 'slow', ?)").run(t(9))
  conversation.run('BOT', 'bot', t(1), t(2), 5)
  message.run('B1', 'BOT', 5, 'visitor', t(1))
  return db
}

const threads = (db: ReturnType<typeof olderDatabase>) =>
  Object.fromEntries(db.query<{ conversation_id: string; waiting_since: string | null; rating: string | null }, []>('SELECT conversation_id, waiting_since, rating FROM desk_threads').all().map((row) => [row.conversation_id, { waiting: row.waiting_since, rating: row.rating }]))

describe('migration 21: who waits for a person, and ratings, on the desk', () => {
  test('an upgraded database knows who waits since when (the oldest unanswered message), and each rating as good, neutral or bad with its timeline event', () => {
    const db = olderDatabase()
    expect(migrate(db, migrations.filter((m) => m.id <= 21)).applied).toEqual(['0021_desk_waiting_and_ratings'])
    expect(threads(db)).toEqual({
      UNANSWERED: { waiting: t(1), rating: null },
      ANSWERED: { waiting: null, rating: null },
      AGAIN: { waiting: t(5), rating: null },
      RATED: { waiting: null, rating: 'bad' },
      BOT: { waiting: null, rating: null },
    })
    const rated = db.query<{ kind: string; at: string; data: string }, []>("SELECT kind, at, data FROM desk_events WHERE conversation_id = 'RATED'").all()
    expect(rated.map((row) => ({ ...row, data: JSON.parse(row.data) }))).toEqual([{ kind: 'rated', at: t(9), data: { scale: 'stars', score: 2, comment: 'slow' } }])
  })

  test("afterwards its triggers keep status changes and ratings (messages are the desk's turn writer's: test/desk/waiting.test.ts)", () => {
    const db = olderDatabase()
    migrate(db)
    // Handed off: the handoff starts the wait; closed, it ends.
    db.query("UPDATE conversations SET status = 'handoff', updated_at = ? WHERE id = 'BOT'").run(t(15))
    expect(threads(db).BOT?.waiting).toBe(t(15))
    db.query("UPDATE conversations SET status = 'closed', updated_at = ? WHERE id = 'BOT'").run(t(16))
    expect(threads(db).BOT?.waiting).toBeNull()
    db.query("UPDATE conversations SET status = 'bot', updated_at = ? WHERE id = 'UNANSWERED'").run(t(17))
    expect(threads(db).UNANSWERED?.waiting).toBeNull()
    const rate = db.query("INSERT INTO conversation_ratings (conversation_id, scale, score, comment, created_at) VALUES ('BOT', ?, ?, NULL, ?)")
    rate.run('thumbs', 1, t(18))
    expect(threads(db).BOT?.rating).toBe('good')
    expect(db.query("SELECT count(*) AS n FROM desk_events WHERE conversation_id = 'BOT' AND kind = 'rated'").get()).toEqual({ n: 1 })
  })
})
