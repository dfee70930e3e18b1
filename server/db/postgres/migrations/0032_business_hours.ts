import type { PostgresMigration } from '../migration.ts'

/** A chatbot's business hours (SQLite's 0032_business_hours.ts says what each column holds). */
export const businessHours: PostgresMigration = {
  id: 32,
  name: 'business_hours',
  sql: `
    CREATE TABLE business_hours (
      chatbot_id text PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
      timezone text NOT NULL,
      weekly text NOT NULL,
      holidays text NOT NULL,
      closed_text text,
      updated_at text NOT NULL
    );
  `,
}
