import { afterEach, describe, expect, test } from 'bun:test'
import { CLIENT_IDS_KEPT, messageStore } from '../../server/conversations/message-store.ts'
import type { Message } from '../../server/conversations/model.ts'
import { removeSeededDatabases, seededDatabase } from '../support/seeded-database.ts'

afterEach(removeSeededDatabases)

const at = '2026-01-01T00:00:00.000Z'

function database() {
  const db = seededDatabase({ at })
  db.exec(`
    INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq)
      VALUES ('C1', 'B', 'P', 'web', 'bot', '${at}', '${at}', 1), ('C2', 'B', 'P', 'web', 'bot', '${at}', '${at}', 2);
  `)
  return db
}

const said = (id: string, conversation: string, clientId?: string): Message => ({
  id,
  conversation_id: conversation,
  role: 'visitor',
  content: { kind: 'text', text: id },
  created_at: at,
  ...(clientId ? { client_id: clientId } : {}),
})

describe('telling a resend from a new message by its client id', () => {
  test('finds a message stored before the store first looked at its conversation', () => {
    const db = database()
    db.exec(`INSERT INTO messages (id, conversation_id, conversation_seq, role, client_id, content, created_at)
             VALUES ('M1', 'C1', 1, 'visitor', 'k1', '{"kind":"text","text":"one"}', '${at}')`)
    const messages = messageStore(db)
    expect(messages.findByClientId('C1', 'k1')?.id).toBe('M1')
    expect(messages.findByClientId('C1', 'k2')).toBeUndefined()
    expect(messages.findByClientId('C2', 'k1')).toBeUndefined()
  })

  test('finds a message stored after the store looked, and keeps client ids apart per conversation', () => {
    const db = database()
    const messages = messageStore(db)
    expect(messages.findByClientId('C1', 'k1')).toBeUndefined()
    messages.insert(said('M1', 'C1', 'k1'))
    messages.insert(said('M2', 'C2', 'k2'))
    expect(messages.findByClientId('C1', 'k1')?.id).toBe('M1')
    expect(messages.findByClientId('C2', 'k2')?.id).toBe('M2')
    expect(messages.findByClientId('C1', 'k2')).toBeUndefined()
  })

  test('a message whose insert was rolled back is not taken for a resend', () => {
    const db = database()
    const messages = messageStore(db)
    expect(messages.findByClientId('C1', 'k1')).toBeUndefined()
    db.exec('BEGIN IMMEDIATE')
    messages.insert(said('M1', 'C1', 'k1'))
    db.exec('ROLLBACK')
    expect(messages.findByClientId('C1', 'k1')).toBeUndefined()
    messages.insert(said('M2', 'C1', 'k1'))
    expect(messages.findByClientId('C1', 'k1')?.id).toBe('M2')
  })

  test('a long conversation keeps only its newest client ids in memory, and still finds a resend of an old one', () => {
    const db = database()
    const messages = messageStore(db)
    expect(messages.findByClientId('C1', 'k0')).toBeUndefined()
    const count = CLIENT_IDS_KEPT * 3
    for (let i = 0; i < count; i++) messages.insert(said(`M${String(i).padStart(4, '0')}`, 'C1', `k${i}`))
    expect(messages.findByClientId('C1', 'k0')?.id).toBe('M0000')
    expect(messages.findByClientId('C1', `k${count - 1}`)?.id).toBe(`M${String(count - 1).padStart(4, '0')}`)
    expect(messages.findByClientId('C1', 'never sent')).toBeUndefined()
    // A second store (a restart) reads the conversation's newest ids only, and finds the old ones too.
    const restarted = messageStore(db)
    expect(restarted.findByClientId('C1', 'k1')?.id).toBe('M0001')
    expect(restarted.findByClientId('C1', `k${count - 2}`)?.id).toBe(`M${String(count - 2).padStart(4, '0')}`)
    expect(restarted.findByClientId('C1', 'never sent')).toBeUndefined()
  })

  test('past the kept ids, a new client id is told from a resend without a query, before and after a restart', () => {
    const db = database()
    const messages = messageStore(db)
    expect(messages.findByClientId('C1', 'k0')).toBeUndefined()
    const count = CLIENT_IDS_KEPT * 3
    for (let i = 0; i < count; i++) messages.insert(said(`M${String(i).padStart(4, '0')}`, 'C1', `k${i}`))
    const restarted = messageStore(db)
    expect(restarted.findByClientId('C1', 'k1')?.id).toBe('M0001')
    // With the table out of reach, any query throws: what answers now answers from memory.
    db.exec('ALTER TABLE messages RENAME TO messages_out_of_reach')
    for (const store of [messages, restarted]) {
      const looked = Array.from({ length: 200 }, (_, i) => {
        try {
          return store.findByClientId('C1', `new-${i}`) === undefined ? 'new' : 'found'
        } catch {
          return 'queried'
        }
      })
      // A Bloom filter may send a few new ids to the database (false positives), never a stored one away from it.
      expect(looked.filter((answer) => answer === 'new').length).toBeGreaterThanOrEqual(190)
      expect(looked).not.toContain('found')
      expect(() => store.findByClientId('C1', 'k0')).toThrow()
    }
    db.exec('ALTER TABLE messages_out_of_reach RENAME TO messages')
    expect(messages.findByClientId('C1', 'k0')?.id).toBe('M0000')
    expect(restarted.findByClientId('C1', `k${count - 1}`)?.id).toBe(`M${String(count - 1).padStart(4, '0')}`)
  })
})
