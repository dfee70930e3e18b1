import type { Database } from 'bun:sqlite'
import { RowCache } from '../db/row-cache.ts'
import type { Contact, ContactDetails } from './model.ts'

interface ContactRow {
  id: string
  chatbot_id: string
  external_id: string | null
  details: string
  /** The visitor's language (a BCP 47 tag), when their channel said. */
  locale: string | null
  first_message_at: string | null
  created_at: string
  updated_at: string | null
  /** The details parsed, once: every message of a chat reads them. */
  parsed?: ContactDetails
}

export type StoredContact = Contact & { chatbot_id: string; first_message_at: string | null }

export type ContactStore = ReturnType<typeof contactStore>

/** Contacts kept in memory: every message of a chat reads its contact's details. */
const CACHED_CONTACTS = 10_000

export function contactStore(db: Database) {
  const cache = new RowCache<ContactRow>(CACHED_CONTACTS)
  const insert = db.query(
    `INSERT INTO contacts (id, chatbot_id, external_id, visitor_token_hash, details, locale, created_at)
     VALUES ($id, $chatbot_id, $external_id, $visitor_token_hash, $details, $locale, $created_at)`,
  )
  const byId = db.query<ContactRow, [string]>('SELECT * FROM contacts WHERE id = ?')
  const byExternalId = db.query<ContactRow, [string, string]>('SELECT * FROM contacts WHERE chatbot_id = ? AND external_id = ?')
  const byVisitorToken = db.query<ContactRow, [string, string]>(
    'SELECT * FROM contacts WHERE chatbot_id = ? AND visitor_token_hash = ?',
  )
  const setDetails = db.query('UPDATE contacts SET details = ?, updated_at = ? WHERE id = ?')
  const markFirstMessage = db.query(
    'UPDATE contacts SET first_message_at = ? WHERE id = ? AND first_message_at IS NULL',
  )
  const setLocale = db.query('UPDATE contacts SET locale = ?, updated_at = ? WHERE id = ?')
  const identify = db.query('UPDATE contacts SET external_id = ?, visitor_token_hash = NULL, updated_at = ? WHERE id = ?')

  return {
    insert(row: { id: string; chatbot_id: string; external_id: string | null; visitor_token_hash: string | null; locale?: string | null; created_at: string }) {
      insert.run({ ...row, locale: row.locale ?? null, details: '{}' })
    },
    get: (id: string) => toContact(cache.through(id, () => byId.get(id) ?? undefined) ?? null),
    /** The contact's language alone, from the cached row (every bot turn reads it, for `contact.locale`). */
    localeOf: (id: string): string | null => cache.through(id, () => byId.get(id) ?? undefined)?.locale ?? null,
    setLocale(id: string, locale: string, at: string): void {
      cache.delete(id)
      setLocale.run(locale, at, id)
    },
    findByExternalId: (chatbotId: string, externalId: string) => toContact(byExternalId.get(chatbotId, externalId)),
    findByVisitorToken: (chatbotId: string, tokenHash: string) => toContact(byVisitorToken.get(chatbotId, tokenHash)),
    setDetails(id: string, details: ContactDetails, at: string): void {
      cache.delete(id)
      setDetails.run(JSON.stringify(details), at, id)
    },
    markFirstMessage(id: string, at: string): void {
      cache.delete(id)
      markFirstMessage.run(at, id)
    },
    /** An anonymous visitor who identifies becomes that identified contact. */
    identify(id: string, externalId: string, at: string): void {
      cache.delete(id)
      identify.run(externalId, at, id)
    },
    /** After a rollback or a cascading delete: the next reads go to the database. */
    forgetCached: () => cache.clear(),
  }
}

function toContact(row: ContactRow | null): StoredContact | undefined {
  if (!row) return undefined
  row.parsed ??= JSON.parse(row.details) as ContactDetails
  return {
    id: row.id,
    chatbot_id: row.chatbot_id,
    external_id: row.external_id,
    // A copy: the cached row's own object is never handed out to be changed.
    details: { ...row.parsed },
    locale: row.locale,
    first_message_at: row.first_message_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
