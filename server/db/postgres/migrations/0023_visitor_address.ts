import type { PostgresMigration } from '../migration.ts'

export const visitorAddress: PostgresMigration = {
  id: 23,
  name: 'visitor_address',
  sql: `
    -- The widget visitor's IP address at their last connect, shown in the desk's context panel.
    ALTER TABLE desk_web_visitors ADD COLUMN address text;
  `,
}
