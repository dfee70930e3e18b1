import type { PostgresMigration } from '../migration.ts'

export const contactLocale: PostgresMigration = {
  id: 27,
  name: 'contact_locale',
  sql: `
    -- The visitor's language (a BCP 47 tag such as pt-BR), null when the channel does not say.
    ALTER TABLE contacts ADD COLUMN locale text;
  `,
}
