import type { PostgresMigration } from '../migration.ts'

export const userLocale: PostgresMigration = {
  id: 30,
  name: 'user_locale',
  sql: `
    -- The language a person chose for the app; null follows their browser.
    ALTER TABLE users ADD COLUMN locale text;
  `,
}
