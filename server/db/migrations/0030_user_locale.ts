import type { Migration } from '../migration.ts'

export const userLocale: Migration = {
  id: 30,
  name: 'user_locale',
  up(db) {
    db.exec(`
      -- The language a person chose for the desk and the console (one of the app's languages,
      -- server/people/app-locales.ts). Null: the app follows the person's browser.
      ALTER TABLE users ADD COLUMN locale TEXT;
    `)
  },
}
