import type { Migration } from '../migration.ts'

export const visitorAddress: Migration = {
  id: 23,
  name: 'visitor_address',
  up(db) {
    db.exec(`
      -- The widget visitor's IP address at their last connect (behind a trusted proxy, the
      -- client it forwarded for), shown with the page and browser in the desk's context panel.
      ALTER TABLE desk_web_visitors ADD COLUMN address TEXT;
    `)
  },
}
