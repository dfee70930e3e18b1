import type { Migration } from '../migration.ts'

export const businessHours: Migration = {
  id: 32,
  name: 'business_hours',
  up(db) {
    db.exec(`
      -- A chatbot's business hours (server/business-hours/): an IANA time zone, the weekly
      -- spans as JSON ({"mon": [{"from": "09:00", "until": "17:00"}], ...}) and the holidays
      -- as JSON ([{"date": "2026-12-25", "name": "Christmas"}]). No row: always open.
      CREATE TABLE business_hours (
        chatbot_id TEXT PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
        timezone TEXT NOT NULL,
        weekly TEXT NOT NULL,
        holidays TEXT NOT NULL,
        closed_text TEXT,
        updated_at TEXT NOT NULL
      );
    `)
  },
}
