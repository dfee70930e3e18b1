import type { Migration } from '../migration.ts'

export const contactLocale: Migration = {
  id: 27,
  name: 'contact_locale',
  up(db) {
    db.exec(`
      -- The visitor's language (a BCP 47 tag such as pt-BR, from the widget's browser), for
      -- flows (contact.locale), the desk's context panel and the model in agent states.
      -- Null when the channel does not say.
      ALTER TABLE contacts ADD COLUMN locale TEXT;
    `)
  },
}
